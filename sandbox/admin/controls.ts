/**
 * Test controls (listed in sandbox/README.md): JSON over HTTP under /_sandbox/, a
 * prefix no path of the spec uses. Off with --no-admin. Bodies and answers are plain JSON
 * (not the envelope): they are the sandbox's own interface, not the service's.
 */
import { t, type Msg } from '../i18n';
import { timingSafeEqual } from 'node:crypto';
import { header, type RequestContext } from '../http/context';
import type { RawReply, Reply } from '../http/envelope';
import type { Router } from '../http/router';
import { checkRegistration, registerClient } from '../oauth/registration';
import { parseScope } from '../oauth/scopes';
import { issueTokensByHand } from '../oauth/token';
import { seed, type SeedKind } from '../seed';
import type { Services } from '../services';
import type { FaultSpec } from './faults';
import { adminMessages as am } from './messages';

const json = (status: number, body: unknown): RawReply => ({
  kind: 'raw',
  status,
  body: JSON.stringify(body),
  contentType: 'application/json; charset=UTF-8',
  headers: { 'cache-control': 'no-store' },
});
const bad = (ctx: RequestContext, message: Msg, params: Record<string, string> = {}, status = 400) =>
  json(status, { error: t(message, ctx.lang, params) });

/**
 * The JSON body under the same limits as the API's (null-prototype objects, valid Unicode), decoded
 * by the server before dispatch (the routes are declared with `body: 'json'`); null when refused.
 */
function bodyOf(ctx: RequestContext): Record<string, unknown> | null {
  return ctx.decoded?.ok ? ctx.decoded.value : null;
}

/** Body values as text / number; objects (null-prototype, see http/decode.ts) are never coerced. */
const str = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
const num = (v: unknown): number => (v !== null && typeof v === 'object' ? Number.NaN : Number(v));

type AdminHandler = (body: Record<string, unknown>, ctx: RequestContext) => Reply;

/** The latest time POST /_sandbox/clock/advance may reach (ISO 8601 has four-digit years). */
const LAST_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The header that carries the admin secret, when the sandbox was started with one. */
export const ADMIN_SECRET_HEADER = 'x-sandbox-admin-secret';

/** Whether the request carries the admin secret (the test controls and, embedded, /register). */
export function holdsSecret(ctx: RequestContext, secret: string): boolean {
  const given = Buffer.from(header(ctx, ADMIN_SECRET_HEADER) ?? '');
  const expected = Buffer.from(secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `afterReset` runs once a reset has seeded the store again (the embedded sandbox's per-launch demo secrets). */
export function addAdminRoutes(router: Router, s: Services, adminSecret?: string, afterReset?: () => void): void {
  const add = (method: string, path: string, handler: AdminHandler) =>
    router.add(
      method,
      `/_sandbox/${path}`,
      (ctx) => {
        if (adminSecret !== undefined && !holdsSecret(ctx, adminSecret)) return bad(ctx, am.secretRequired, {}, 403);
        const body = bodyOf(ctx);
        return body ? handler(body, ctx) : bad(ctx, am.bodyNotJson);
      },
      { api: false, body: 'json' },
    );

  add('GET', 'clock', () => json(200, { now: s.clock.now().toISOString() }));

  add('POST', 'clock/advance', (b, ctx) => {
    const seconds = num(b.seconds);
    if (b.seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return bad(ctx, am.secondsInvalid);
    // A Date ends at ±8.64e15 ms (ECMA-262 "Time Values"): a clock moved past it has no time, every
    // answer would be a 500 and, with --data, stay so after a restart. The clock stops at year 9999.
    if (s.clock.now().getTime() + seconds * 1000 > LAST_CLOCK_MS) return bad(ctx, am.clockTooFar);
    const now = s.clock.advance(seconds);
    s.store.companies.setMeta('clockOffsetMs', String(s.clock.offsetMs()));
    return json(200, { now: now.toISOString() });
  });

  add('POST', 'tokens', (b, ctx) => {
    const client = s.store.oauth.client(str(b.clientId));
    if (!client) return bad(ctx, am.clientUnknown, { clientId: str(b.clientId) });
    const username = str(b.username);
    if (s.store.oauth.companyOfUser(username) === null) return bad(ctx, am.userUnknown, { username });
    const scope = parseScope(str(b.scope));
    if (!scope) return bad(ctx, am.scopeInvalid);
    return json(200, issueTokensByHand(s, client, username, scope.join(' ')));
  });

  add('POST', 'clients', (b, ctx) => {
    const reg = {
      companyName: str(b.companyName),
      logoUrl: typeof b.logoUrl === 'string' ? b.logoUrl : null,
      webUrl: typeof b.webUrl === 'string' ? b.webUrl : null,
      redirectUri: str(b.redirectUri),
      clientSecret: str(b.clientSecret),
    };
    const problems = checkRegistration(reg);
    if (problems.length > 0)
      return json(400, { error: problems.map((p) => t(p.message, ctx.lang, p.params)).join(' ') });
    return json(201, { clientId: registerClient(s.store, reg, s.clock.now()) });
  });

  add('POST', 'permissions/withdraw', (b, ctx) => {
    const clientId = str(b.clientId);
    if (!s.store.oauth.client(clientId)) return bad(ctx, am.clientUnknown, { clientId });
    return json(200, { deletedTokens: s.store.oauth.withdraw(clientId, str(b.username)) });
  });

  add('POST', 'licence', (b, ctx) => {
    const limit = b.limit === null ? null : num(b.limit);
    if (limit !== null && (!Number.isInteger(limit) || limit < 0)) return bad(ctx, am.limitInvalid);
    s.store.companies.setLicenceLimit(limit);
    return json(200, { limit });
  });

  add('POST', 'reset', (b, ctx) => {
    const kind = (b.seed ?? 'demo') as SeedKind;
    if (kind !== 'demo' && kind !== 'none') return bad(ctx, am.seedInvalid);
    s.store.wipe();
    s.pending.clear();
    s.faults.clear();
    seed(s.store, kind, s.clock.now());
    afterReset?.();
    return json(200, { seed: kind });
  });

  add('POST', 'faults', (b, ctx) => {
    const spec: FaultSpec = {
      path: str(b.path),
      method: typeof b.method === 'string' ? b.method : undefined,
      latencyMs: b.latencyMs === undefined ? undefined : num(b.latencyMs),
      status: b.status === undefined ? undefined : num(b.status),
      reset: b.reset === true,
      hang: b.hang === true,
      carrierReject: b.carrierReject === true,
      count: b.count === undefined ? undefined : num(b.count),
    };
    const latencyOk =
      spec.latencyMs === undefined ||
      (Number.isFinite(spec.latencyMs) && spec.latencyMs >= 0 && spec.latencyMs <= 600_000);
    const statusOk =
      spec.status === undefined || (Number.isInteger(spec.status) && spec.status >= 500 && spec.status <= 599);
    const countOk = spec.count === undefined || (Number.isInteger(spec.count) && spec.count >= 1);
    const anything = !!(spec.latencyMs || spec.status || spec.reset || spec.hang || spec.carrierReject);
    if (!spec.path.startsWith('/') || !latencyOk || !statusOk || !countOk || !anything)
      return bad(ctx, am.faultInvalid);
    s.faults.add(spec);
    return json(201, { fault: spec });
  });

  add('DELETE', 'faults', () => {
    s.faults.clear();
    return json(200, { cleared: true });
  });
}
