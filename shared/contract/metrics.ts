/**
 * Fleet metrics in the RPC contract (Settings → Metrics): the opt-in Prometheus endpoint's
 * address, port and whether it runs, and its bearer token, which the page reads only when the
 * admin asks for it (to paste into Prometheus' scrape config). electron/metrics/ serves it.
 */
import { z } from 'zod';

/** Where the endpoint listens. Loopback by default: a LAN address is the admin's deliberate choice. */
export const metricsSettings = z
  .object({
    enabled: z.boolean(),
    /**
     * An IP address of this computer (not a name: what is bound is what the admin sees), and one
     * address: "every address" (0.0.0.0, ::) would open it on every network the computer joins.
     */
    address: z
      .union([z.ipv4(), z.ipv6()], { error: 'An IP address, such as 127.0.0.1.' })
      .refine((a) => !/^(0\.0\.0\.0|::|0:0:0:0:0:0:0:0)$/.test(a), 'One address of this computer, not all of them.'),
    port: z.number().int().min(1024, 'A port from 1024 to 65535.').max(65_535, 'A port from 1024 to 65535.'),
  })
  .strict();
export type MetricsSettings = z.infer<typeof metricsSettings>;

/** Loopback addresses: only programs on this computer reach them. */
export const isLoopbackAddress = (address: string): boolean =>
  /^127\./.test(address) || address === '::1' || address === '0:0:0:0:0:0:0:1';

const metricsState = z.object({
  settings: metricsSettings,
  /** The scrape URL while it listens, else null. */
  url: z.string().nullable(),
  /** Why it does not listen although enabled (the port is taken, the address is not this computer's...). */
  error: z
    .object({
      code: z.enum(['address_in_use', 'address_not_available', 'token_unavailable', 'listen_failed']),
      message: z.string(),
    })
    .nullable(),
  /** The address is reachable from other computers: Settings says so in plain words. */
  lan: z.boolean(),
});
export type MetricsState = z.infer<typeof metricsState>;

const none = z.object({}).strict();

export const metricsMethods = {
  'metrics.get': { reads: true, params: none, result: metricsState },
  /** Saves the settings and starts, moves or stops the endpoint; answers with where it listens now. */
  'metrics.set': { params: metricsSettings, result: metricsState },
  /** The bearer token, shown only on request (it is a secret kept in the keychain). */
  'metrics.token': { params: none, result: z.object({ token: z.string() }) },
  /** A new token: the old one stops working at once (Prometheus needs the new one). */
  'metrics.newToken': { params: none, result: z.object({ token: z.string() }) },
};
