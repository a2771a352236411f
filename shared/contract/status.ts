/** Station status: what a worker or support person checks first. */
import { z } from 'zod';
import { storageFailure } from '../storageFailure';
import { printerReasonCode } from './printing';

export const printerSummary = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['zpl-tcp', 'zpl-usb', 'zpl-spooler', 'pdf-system', 'virtual-zpl', 'virtual-pdf']),
  state: z.enum(['ready', 'offline', 'error', 'unknown']),
  /** What stops it (out of labels, head open, not answering…): the Status screen names it, null when ready. */
  reasonCode: printerReasonCode.nullable(),
  reason: z.string().nullable(),
});

export const sessionUsable = z.enum(['usable', 'login_needed', 'unreachable']);
export type SessionUsable = z.infer<typeof sessionUsable>;

export const stationStatus = z.object({
  version: z.string(),
  dataDir: z.string(),
  host: z.enum(['electron', 'web']),
  service: z.object({
    environment: z.enum(['sandbox', 'test', 'production']),
    baseUrl: z.string(),
    reachable: z.boolean(),
    checkedAt: z.string().nullable(),
    error: z.string().nullable(),
    /** `error` as a code the UI translates (service_http, service_timeout, service_network), with its values. */
    errorCode: z.string().nullable(),
    errorDetails: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
  }),
  /**
   * Can the active account be used now: `usable` (logged in with a working token and the service
   * answers), `login_needed` (the service answers but the active company must log in, or there is
   * none) or `unreachable` (the service does not answer). What waits for the account follows this.
   */
  session: z.object({ usable: sessionUsable }),
  printers: z.array(printerSummary),
  /** Whether secrets are in the OS keychain; without one, logins last only until the station stops. */
  keychain: z.object({ available: z.boolean(), message: z.string().nullable() }),
  /**
   * The data folder cannot be written (`failed`): scanning has stopped and the core is about to
   * exit so its supervisor starts it again. `restartedAfter`: this core was started again after
   * such a stop (the desk says why).
   */
  storage: z.object({ failed: storageFailure.nullable(), restartedAfter: storageFailure.nullable() }),
});

export type StationStatus = z.infer<typeof stationStatus>;
export type PrinterSummary = z.infer<typeof printerSummary>;

export const statusMethods = {
  'station.status': { reads: true, params: z.object({}).strict(), result: stationStatus },
  /** Checks the service again now instead of waiting for the next periodic check. */
  'station.checkService': { params: z.object({}).strict(), result: stationStatus },
};

export const statusEvents = {
  /** Pushed every second so a page can tell the core is alive. */
  'station.tick': z.object({ now: z.string() }),
  'station.statusChanged': stationStatus,
};
