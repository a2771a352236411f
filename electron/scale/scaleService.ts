/**
 * The station's one scale: opened from the settings, reopened when it drops, its latest reading
 * kept and pushed to the screen when it changes. `waitStable` is what a scan waits on before its
 * close: the first settled weight above zero (an empty scale at zero is no parcel), or the
 * worker's skip, or the end of the countdown.
 */
import { defaultScaleSettings, scaleSettings, type ScaleSettings, type Weighing } from '../../shared/contract/scale';
import type { SettingsRepo } from '../store/settingsRepo';
import type { ScaleReading } from './reading';
import type { ScaleDriver } from './scaleDriver';
import { compareDecimals } from '../../shared/decimal';
import { StationError } from '../base/stationError';

const KEY = 'scale';

export type StableWait =
  | { kind: 'stable'; reading: Extract<ScaleReading, { state: 'stable' }> }
  | { kind: 'skipped' }
  | { kind: 'timeout' }
  /** The station is closing: the scan keeps its place and is weighed after the restart. */
  | { kind: 'closing' };

export interface ScaleServiceOptions {
  settings: SettingsRepo;
  /** Opens the driver the settings name (tests pass the real openers; the station too). */
  open(s: ScaleSettings): Promise<ScaleDriver>;
  onReading?(r: ScaleReading): void;
  onWeighing?(w: Weighing): void;
  /** How soon a dropped scale is opened again. */
  reopenMs?: number;
}

/**
 * Whether a reading shows the scale holding something other than the weight last taken: moving,
 * another settled weight, over- or underload. An answer that shows no load at all is no evidence
 * that the parcel left: an error answer (MT-SICS `ET` transmission error, `ES`, `EL`, `S I` busy,
 * an unreadable line) or a dropped connection. Taking such an answer for "lifted off" let a parcel
 * left on the scale be weighed again for the next scan.
 */
function showsOtherLoad(r: ScaleReading, lastTaken: string | null): boolean {
  switch (r.state) {
    case 'stable':
      return lastTaken === null || compareDecimals(r.kg, lastTaken) !== 0;
    case 'motion':
    case 'overload':
    case 'underload':
      return true;
    case 'fault':
    case 'disconnected':
      return false;
  }
}

const NO_SCALE: ScaleReading = { state: 'disconnected', code: 'no_scale', message: 'No scale is set up.' };

export function createScaleService(o: ScaleServiceOptions) {
  const reopenMs = o.reopenMs ?? 3000;
  let settings: ScaleSettings = { ...defaultScaleSettings, ...(o.settings.get<Partial<ScaleSettings>>(KEY) ?? {}) };
  let driver: ScaleDriver | null = null;
  let reading: ScaleReading = NO_SCALE;
  let generation = 0;
  let reopenTimer: NodeJS.Timeout | null = null;
  const waiters = new Set<(r: ScaleReading) => void>();
  let skip: (() => void) | null = null;
  let closing: (() => void) | null = null;

  /**
   * The last weight a scan took, and whether the scale has shown anything else since (lifted off,
   * moving, another weight). A parcel left on the scale is never taken again for the next package
   * or the next scan; two parcels of the same weight still count, as the scale went to zero between.
   */
  let lastTaken: string | null = null;
  let leftSinceTaken = true;

  function set(r: ScaleReading): void {
    const changed = JSON.stringify(r) !== JSON.stringify(reading);
    reading = r;
    if (showsOtherLoad(r, lastTaken)) leftSinceTaken = true;
    waiters.forEach((fn) => fn(r));
    if (changed) o.onReading?.(r);
  }

  async function connect(): Promise<void> {
    const gen = ++generation;
    if (reopenTimer) clearTimeout(reopenTimer);
    reopenTimer = null;
    const old = driver;
    driver = null;
    await old?.close().catch(() => undefined);
    if (settings.kind === 'none' || !settings.path) return set(NO_SCALE);
    try {
      const d = await o.open(settings);
      if (gen !== generation) return void (await d.close());
      driver = d;
      d.onReading((r) => {
        if (gen !== generation) return;
        set(r);
        if (r.state === 'disconnected') scheduleReopen(gen);
      });
    } catch (err) {
      set({
        state: 'disconnected',
        code: 'open_failed',
        message: `The scale at ${settings.path} could not be opened: ${err instanceof Error ? err.message : String(err)}`,
      });
      scheduleReopen(gen);
    }
  }

  function scheduleReopen(gen: number): void {
    if (reopenTimer || gen !== generation) return;
    reopenTimer = setTimeout(() => {
      reopenTimer = null;
      if (gen === generation) void connect();
    }, reopenMs);
    reopenTimer.unref?.();
  }

  return {
    settings: () => settings,
    enabled: () => settings.kind !== 'none' && settings.path !== '',
    async setSettings(next: ScaleSettings): Promise<ScaleSettings> {
      const parsed = scaleSettings.parse(next);
      // A scale without its port is no scale the station can read: refused, not saved as if it were set up.
      if (parsed.kind !== 'none' && !parsed.path.trim())
        throw new StationError('scale_no_path', 'A scale needs its port or device path (e.g. /dev/ttyUSB0, COM3).');
      settings = parsed;
      o.settings.set(KEY, settings);
      await connect();
      return settings;
    },
    start: () => connect(),
    reading: () => reading,

    /**
     * Waits for a settled weight above zero, the worker's skip, or `ms`. `weighing` is shown
     * meanwhile. A parcel already settled on the scale counts at once — unless it is the one the
     * last scan took and the scale has not left it since. `retake`: that parcel may be taken again
     * (the worker accepted its weight at batch mode's weight check, and it still lies there).
     */
    waitStable(ms: number, weighing: NonNullable<Weighing>, opts: { retake?: boolean } = {}): Promise<StableWait> {
      return new Promise((resolve) => {
        const done = (w: StableWait) => {
          clearTimeout(t);
          waiters.delete(check);
          skip = null;
          closing = null;
          o.onWeighing?.(null);
          resolve(w);
        };
        const check = (r: ScaleReading) => {
          if ((!leftSinceTaken && !opts.retake) || r.state !== 'stable' || compareDecimals(r.kg, '0') <= 0) return;
          lastTaken = r.kg;
          leftSinceTaken = false;
          done({ kind: 'stable', reading: r });
        };
        const t = setTimeout(() => done({ kind: 'timeout' }), ms);
        skip = () => done({ kind: 'skipped' });
        closing = () => done({ kind: 'closing' });
        waiters.add(check);
        o.onWeighing?.(weighing);
        check(reading);
      });
    },
    /** The worker's skip key; false when no scan waits for the scale. */
    skip(): boolean {
      if (!skip) return false;
      skip();
      return true;
    },
    /** Stops: a scan waiting for the scale is let go at once (it waits in the journal, unweighed). */
    async close(): Promise<void> {
      closing?.();
      generation++;
      if (reopenTimer) clearTimeout(reopenTimer);
      await driver?.close().catch(() => undefined);
      driver = null;
    },
  };
}

export type ScaleService = ReturnType<typeof createScaleService>;
