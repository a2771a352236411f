/** A connected scale: it pushes readings until closed. One driver per protocol. */
import type { ScaleReading } from './reading';

export interface ScaleDriver {
  /** Readings as they come (also `disconnected` when the link drops). */
  onReading(fn: (r: ScaleReading) => void): void;
  close(): Promise<void>;
}
