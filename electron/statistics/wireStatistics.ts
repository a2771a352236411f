/**
 * The desk's figures, wired by the composition root (electron/station.ts): the Statistics
 * screen's RPC handlers over their repository.
 */
import { createStatisticsRepo } from '../store/statisticsRepo';
import type { StationStore } from '../store/wireStore';
import { createStatisticsHandlers } from './statisticsHandlers';

export function wireStatistics(o: { store: StationStore }) {
  return { handlers: createStatisticsHandlers(createStatisticsRepo(o.store.db)) };
}
