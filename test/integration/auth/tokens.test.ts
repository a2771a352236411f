/**
 * The token manager against the sandbox, with a counting proxy in front of it: exactly one
 * refresh for 20 concurrent calls after expiry, renewal before expiry on the station's clock,
 * and withdrawn permission -> 'login_required' once, then no more requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { ServiceError } from '../../../electron/api/index';
import type { Clock } from '../../../electron/base/clock';
import type { LoginState } from '../../../electron/auth/tokenManager';
import { startProxy, type Proxy } from '../api/proxy';
import { adminPost, openSession } from '../api/support';

let sb: Sandbox;
let proxy: Proxy;
beforeAll(async () => {
  sb = await startSandbox();
  proxy = await startProxy(sb.url);
});
afterAll(async () => {
  await proxy?.close();
  await sb?.close();
});

const tokenRequests = () => proxy.count('POST', '/connect/token/');

/** A clock seam the test can move (the station never reads time directly). */
function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    setInterval: () => () => undefined,
    advance: (ms) => void (offset += ms),
  };
}

describe('access tokens (spec "Access to resources" 3, 5)', () => {
  it('asks for one access token for many calls, not one per call', async () => {
    const s = await openSession({ sandbox: sb, baseUrl: proxy.url });
    const before = tokenRequests();
    await Promise.all(Array.from({ length: 5 }, () => s.client.getCollectionPlaces()));
    await s.client.getCollectionPlaces();
    expect(tokenRequests() - before).toBe(1);
  });

  it('after the service clock passes expiry, 20 concurrent calls share exactly ONE refresh and all succeed', async () => {
    const s = await openSession({ sandbox: sb, baseUrl: proxy.url });
    await s.client.getCollectionPlaces();
    const before = tokenRequests();
    const placesBefore = proxy.count('GET', '/api/v2/collection-places');
    await adminPost(sb, 'clock/advance', { seconds: 3700 }); // access tokens live 3600 s
    const results = await Promise.all(Array.from({ length: 20 }, () => s.client.getCollectionPlaces()));
    expect(results.every((r) => r.length > 0)).toBe(true);
    expect(tokenRequests() - before).toBe(1);
    // Each call: one 401 and one retry with the new token.
    expect(proxy.count('GET', '/api/v2/collection-places') - placesBefore).toBe(40);
    expect(s.tokens.state()).toEqual({ state: 'logged-in' });
  });

  it('renews shortly before expiry on the station clock, without meeting a 401', async () => {
    const clock = movableClock();
    const s = await openSession({ sandbox: sb, baseUrl: proxy.url, clock });
    await s.client.getCollectionPlaces();
    const before = tokenRequests();
    clock.advance(3600_000 - 30_000); // inside the 60 s margin
    await Promise.all(Array.from({ length: 20 }, () => s.client.getCollectionPlaces()));
    expect(tokenRequests() - before).toBe(1);
    expect(s.log.lines.some((l) => l.includes('"status":401'))).toBe(false);
  });

  it('withdrawn permission -> one login_required event, then calls fail at once without any request', async () => {
    const s = await openSession({ sandbox: sb, baseUrl: proxy.url });
    await s.client.getCollectionPlaces();
    const states: LoginState[] = [];
    s.tokens.onStateChange((st) => states.push(st));
    await adminPost(sb, 'permissions/withdraw', { clientId: sb.demo.clientId, username: sb.demo.username });
    const tokBefore = tokenRequests();
    const errs = await Promise.all(Array.from({ length: 20 }, () => s.client.getCollectionPlaces().catch((e) => e)));
    expect(errs.every((e) => e instanceof ServiceError && e.kind === 'login_required')).toBe(true);
    expect(tokenRequests() - tokBefore).toBe(1);
    expect(states).toHaveLength(1);
    expect(states[0]!.state).toBe('login_required');

    const apiBefore = [...proxy.counts.values()].reduce((a, b) => a + b, 0);
    const later = await s.client
      .insertDeliveries([])
      .then(() => s.client.getTraces([1]))
      .catch((e) => e);
    expect(later.kind).toBe('login_required');
    expect([...proxy.counts.values()].reduce((a, b) => a + b, 0)).toBe(apiBefore);
    expect(states).toHaveLength(1);
  });

  it('an invalid refresh token becomes login_required with a message saying to log in again', async () => {
    const s = await openSession({ sandbox: sb, baseUrl: proxy.url });
    await s.secrets.set(`${s.accountId}:refresh-token`, 'x'.repeat(40));
    const err = await s.client.getCollectionPlaces().catch((e) => e);
    expect(err.kind).toBe('login_required');
    expect(err.message).toMatch(/log in again/i);
  });

  it('a network failure of the refresh is retried (bounded) and is not mistaken for login_required', async () => {
    const s = await openSession({ sandbox: sb, baseUrl: 'http://127.0.0.1:9' });
    const err = await s.tokens.accessToken().catch((e) => e);
    expect(err.kind).toBe('network');
    expect(s.tokens.state().state).toBe('logged-in');
    expect(s.tokens.refreshCount).toBe(3);
  });
});
