/**
 * One call to the service: headers (JSON, accept-language, Bearer), the time limit, the envelope,
 * typed errors, bounded retries of safe calls, and one token renewal on 401 invalid_token.
 * Resources (client.ts) describe what to send; this module decides how.
 */
import type { Logger } from '../rpc/rpcServer';
import { mapFieldErrors, ServiceError } from './errors';
import { stringifyWire } from './decimal';
import { envelope as envelopeSchema } from './schemas';
import { abortReason, sendWire, type WireResponse } from './wire';
import type { AccessTokenSource } from './index';

export interface CoreOptions {
  baseUrl: string;
  tokens: AccessTokenSource;
  language: () => 'en' | 'cs';
  timeoutMs: number;
  log: Logger;
  getRetries: number;
  retryBackoffMs: number;
  /**
   * Awaited before every request that may change something at the service (any method but GET):
   * the journal step that allows it is on the disk first (store/walSync.ts).
   */
  beforeChange?: () => Promise<void>;
}

export interface CoreRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Encoded query string without '?'. */
  query?: string;
  body?: unknown;
  /** Default true; only GET /api/ goes without a token. */
  auth?: boolean;
  /** Safe to repeat (GETs): retried after a network failure, timeout or 5xx. */
  retry?: boolean;
  headers?: Record<string, string>;
  /** Request items, to map errors[] back to shipments. */
  items?: readonly ({ deliveryId?: unknown; externalId?: unknown } | undefined)[];
  /** Error statuses returned to the caller instead of thrown (e.g. 404 "none found" of a search). */
  accept?: readonly number[];
  signal?: AbortSignal;
}

export interface Envelope {
  code?: number | string;
  status?: string;
  message?: unknown;
  data?: unknown;
  errors?: unknown;
}

export interface CoreResponse {
  status: number;
  etag: string | null;
  location: string | null;
  /** null for 304 and for accepted error statuses without a readable body. */
  envelope: Envelope | null;
}

export type Core = (req: CoreRequest) => Promise<CoreResponse>;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** RFC 6750 3: `Bearer realm="...", error="invalid_token", ...`. */
export function bearerError(header: string | string[] | undefined): string | null {
  const h = Array.isArray(header) ? header.join(', ') : (header ?? '');
  const m = /error\s*=\s*"?([A-Za-z_]+)"?/.exec(h);
  return m ? m[1]! : null;
}

function header(res: WireResponse, name: string): string | null {
  const v = res.headers[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}

function parseEnvelope(body: Buffer): Envelope | null {
  if (body.length === 0) return null;
  try {
    const parsed = envelopeSchema.safeParse(JSON.parse(body.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function messageOf(env: Envelope | null): string | null {
  return env && typeof env.message === 'string' && env.message.trim() ? env.message : null;
}

export function createCore(opts: CoreOptions): Core {
  const base = opts.baseUrl.replace(/\/+$/, '');

  function classify(err: unknown, req: CoreRequest): ServiceError {
    if (err instanceof ServiceError) return err;
    const name = err instanceof Error ? err.name : '';
    if (req.signal?.aborted) return new ServiceError('network', 'The request was cancelled.', { cause: err });
    if (name === 'TimeoutError') {
      return new ServiceError(
        'timeout',
        `The service did not answer within ${Math.round(opts.timeoutMs / 100) / 10} s.`,
        { cause: err },
      );
    }
    const code = (err as { code?: string }).code;
    const detail = code ?? (err instanceof Error ? err.message : String(err));
    return new ServiceError('network', `The service cannot be reached (${detail}).`, { cause: err });
  }

  return async function call(req: CoreRequest): Promise<CoreResponse> {
    const url = new URL(base + req.path + (req.query ? `?${req.query}` : ''));
    const body = req.body === undefined ? undefined : stringifyWire(req.body);
    const maxAttempts = req.retry ? 1 + opts.getRetries : 1;
    let token: string | null = null;
    let renewed = false;
    let attempt = 0;

    for (;;) {
      attempt++;
      if (req.auth !== false && token === null) token = await opts.tokens.accessToken();
      const headers: Record<string, string> = {
        accept: 'application/json',
        'accept-language': opts.language(),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...req.headers,
      };
      if (req.method !== 'GET') await opts.beforeChange?.();
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
      const started = Date.now();
      let res: WireResponse;
      try {
        res = await sendWire({ method: req.method, url, headers, body, signal });
      } catch (err) {
        const e = classify(err, req);
        opts.log.warn('service call failed', {
          method: req.method,
          path: req.path,
          kind: e.kind,
          attempt,
          ms: Date.now() - started,
        });
        if (attempt < maxAttempts && !req.signal?.aborted) {
          await sleep(opts.retryBackoffMs * 2 ** (attempt - 1), req.signal).catch(() => undefined);
          if (!req.signal?.aborted) continue;
        }
        throw e;
      }
      opts.log.info('service call', {
        method: req.method,
        path: req.path,
        status: res.status,
        attempt,
        ms: Date.now() - started,
      });

      if (res.status === 401 && req.auth !== false) {
        // Spec "Access to resources" 3: an expired or invalid token. Renew once, then give up.
        const env = parseEnvelope(res.body);
        if (bearerError(res.headers['www-authenticate']) === 'invalid_token' && !renewed && token) {
          renewed = true;
          token = await opts.tokens.renewAfterRejection(token);
          attempt--;
          continue;
        }
        throw new ServiceError('auth', messageOf(env) ?? 'The service refused the access token.', { status: 401 });
      }
      if (res.status >= 500 && attempt < maxAttempts) {
        await sleep(opts.retryBackoffMs * 2 ** (attempt - 1), req.signal).catch(() => undefined);
        if (!req.signal?.aborted) continue;
      }

      const etag = header(res, 'etag');
      const location = header(res, 'location');
      if (res.status === 304) return { status: 304, etag, location, envelope: null };
      const env = parseEnvelope(res.body);
      if (res.status >= 400 || res.status < 200) {
        if (req.accept?.includes(res.status)) return { status: res.status, etag, location, envelope: env };
        const fallback =
          res.status === 414
            ? 'The request address is too long for the service (HTTP 414).'
            : `The service answered HTTP ${res.status}.`;
        throw new ServiceError('http', messageOf(env) ?? fallback, {
          status: res.status,
          errors: mapFieldErrors(env?.errors, req.items ?? []),
        });
      }
      if (!env) {
        throw new ServiceError(
          'malformed',
          `The service's answer to ${req.method} ${req.path} is not the expected JSON.`,
          { status: res.status },
        );
      }
      return { status: res.status, etag, location, envelope: env };
    }
  };
}
