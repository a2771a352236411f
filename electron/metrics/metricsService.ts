/**
 * Fleet metrics at this desk: the endpoint's settings (one JSON value in the settings table, off
 * by default, loopback by default), its bearer token (a secret: kept where the station keeps
 * secrets — the OS keychain, electron/auth/keychain.ts — never in SQLite or a log line, read by
 * the page only on request), and the listener, started, moved or stopped when the settings change.
 */
import { randomBytes } from 'node:crypto';
import {
  isLoopbackAddress,
  metricsSettings,
  type MetricsSettings,
  type MetricsState,
} from '../../shared/contract/metrics';
import type { SecretStore } from '../auth/keychain';
import type { Handlers, Logger } from '../rpc/rpcServer';
import type { SettingsRepo } from '../store/settingsRepo';
import { startMetricsEndpoint, type MetricsEndpoint } from './metricsEndpoint';
import type { StationMetrics } from './stationMetrics';

const KEY = 'metrics.endpoint';
/** The keychain entry of the desk's metrics token (service "label-station"). */
const METRICS_TOKEN_SECRET = 'station:metrics-token';

const defaultMetricsSettings: MetricsSettings = { enabled: false, address: '127.0.0.1', port: 9477 };

/** 32 random bytes, base64url: an RFC 6750 bearer token Prometheus sends as it is. */
const newToken = () => randomBytes(32).toString('base64url');

export interface MetricsService {
  handlers: Pick<Handlers, 'metrics.get' | 'metrics.set' | 'metrics.token' | 'metrics.newToken'>;
  /** Starts the endpoint when the settings say so (a failure is the state's error, not the start's). */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createMetricsService(o: {
  repo: SettingsRepo;
  secrets: SecretStore;
  metrics: StationMetrics;
  log: Logger;
  now(): Date;
}): MetricsService {
  let settings: MetricsSettings = (() => {
    const parsed = metricsSettings.safeParse({ ...defaultMetricsSettings, ...(o.repo.get<object>(KEY) ?? {}) });
    return parsed.success ? parsed.data : defaultMetricsSettings;
  })();
  let endpoint: MetricsEndpoint | null = null;
  let error: MetricsState['error'] = null;
  /** The token in memory once read (each scrape compares with it; the keychain is not asked per request). */
  let token: string | null = null;
  // Settings changes run one after another: a listener is never started twice on one port.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn, fn);
    chain = run.catch(() => undefined);
    return run;
  };

  async function currentToken(): Promise<string> {
    if (token) return token;
    token = await o.secrets.get(METRICS_TOKEN_SECRET);
    if (!token) {
      const fresh = newToken();
      await o.secrets.set(METRICS_TOKEN_SECRET, fresh);
      token = fresh;
    }
    return token;
  }

  const state = (): MetricsState => ({
    settings,
    url: endpoint?.url ?? null,
    error,
    lan: !isLoopbackAddress(settings.address),
  });

  async function apply(): Promise<void> {
    await endpoint?.close();
    endpoint = null;
    error = null;
    if (!settings.enabled) return;
    try {
      await currentToken();
    } catch (err) {
      error = { code: 'token_unavailable', message: (err as Error).message };
      return;
    }
    try {
      endpoint = await startMetricsEndpoint({
        address: settings.address,
        port: settings.port,
        registry: o.metrics.registry,
        token: () => token ?? '',
        log: o.log,
      });
      o.log.info('metrics endpoint listening', { url: endpoint.url, lan: !isLoopbackAddress(settings.address) });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      error = {
        code:
          code === 'EADDRINUSE'
            ? 'address_in_use'
            : code === 'EADDRNOTAVAIL'
              ? 'address_not_available'
              : 'listen_failed',
        message: (err as Error).message,
      };
      o.log.warn('the metrics endpoint could not listen', {
        address: settings.address,
        port: settings.port,
        error: error.message,
      });
    }
  }

  return {
    handlers: {
      'metrics.get': () => state(),
      'metrics.set': (next) =>
        serial(async () => {
          settings = metricsSettings.parse(next);
          o.repo.set(KEY, settings, o.now());
          await apply();
          return state();
        }),
      'metrics.token': async () => ({ token: await currentToken() }),
      'metrics.newToken': () =>
        serial(async () => {
          const fresh = newToken();
          await o.secrets.set(METRICS_TOKEN_SECRET, fresh);
          token = fresh;
          o.log.info('a new metrics token was made; the old one no longer works');
          return { token: fresh };
        }),
    },
    start: () => serial(apply),
    close: () =>
      serial(async () => {
        await endpoint?.close();
        endpoint = null;
      }),
  };
}
