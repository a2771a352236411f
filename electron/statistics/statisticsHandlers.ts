/** The statistics' RPC methods (shared/contract/statistics.ts): the figures, and the same as CSV. */
import type { Handlers } from '../rpc/rpcServer';
import type { StatisticsRepo } from '../store/statisticsRepo';
import { deskStatistics } from './deskStatistics';
import { statisticsCsv } from './statisticsCsv';

export function createStatisticsHandlers(repo: StatisticsRepo): Pick<Handlers, 'statistics.get' | 'statistics.csv'> {
  return {
    'statistics.get': (range) => deskStatistics(repo, range),
    'statistics.csv': ({ range, language, labels }) => ({
      csv: statisticsCsv(deskStatistics(repo, range), language, labels),
      fileName: `statistics-${range.from}${range.to === range.from ? '' : `_${range.to}`}.csv`,
    }),
  };
}
