/** The test controls under /_sandbox/ (sandbox/README.md "Test controls"). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../index';
import { admin, api, start, tokenFor } from './support';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await start();
  token = await tokenFor(sb);
});
afterAll(() => sb.close());

describe('Test controls', () => {
  it('Faults: an injected 503 answers once as an envelope, then the path works again', async () => {
    await admin(sb, 'faults', { path: '/api/', status: 503, count: 1 });
    const r = await api(sb, 'GET', '/api/', { fmt: 'xml' });
    expect(r.status).toBe(503);
    expect(r.body.status).toBe('error');
    expect((await api(sb, 'GET', '/api/')).status).toBe(200);
  });

  it("Faults: a connection reset makes the client's request fail", async () => {
    await admin(sb, 'faults', { path: '/api/', reset: true, count: 1 });
    await expect(fetch(`${sb.url}/api/`)).rejects.toThrow();
    expect((await api(sb, 'GET', '/api/')).status).toBe(200);
  });

  it("Faults: a hang never answers, so the client's own timeout fires; DELETE /_sandbox/faults clears it", async () => {
    await admin(sb, 'faults', { path: '/api/', hang: true });
    await expect(fetch(`${sb.url}/api/`, { signal: AbortSignal.timeout(300) })).rejects.toThrow(/timeout|aborted/i);
    await admin(sb, 'faults', {}, 'DELETE');
    expect((await api(sb, 'GET', '/api/')).status).toBe(200);
  });

  it('Faults: added latency delays the answer but it still comes (a later request overtakes it)', async () => {
    await admin(sb, 'faults', { path: '/api/', latencyMs: 500, count: 1 });
    const order: string[] = [];
    const slow = api(sb, 'GET', '/api/').then((r) => order.push(`slow:${r.status}`));
    await new Promise((r) => setTimeout(r, 100));
    const fast = api(sb, 'GET', '/api/').then((r) => order.push(`fast:${r.status}`));
    await Promise.all([slow, fast]);
    expect(order).toEqual(['fast:200', 'slow:200']);
  });

  it('Faults: a fault without an effect or with a non-5xx status is refused with a clear error', async () => {
    for (const body of [{ path: '/api/' }, { path: '/api/', status: 200 }, { path: 'api', status: 500 }]) {
      const res = await fetch(`${sb.url}/_sandbox/faults`, { method: 'POST', body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain('path');
    }
  });

  it('Reset: reset with seed none leaves no shipments but the demo login still works; demo brings them back', async () => {
    const sb2 = await start();
    try {
      await admin(sb2, 'reset', { seed: 'none' });
      const t = await tokenFor(sb2);
      expect((await api(sb2, 'GET', '/api/v3/deliveries?deliveryId=>0', { token: t })).status).toBe(404);
      await admin(sb2, 'reset', { seed: 'demo' });
      const t2 = await tokenFor(sb2);
      expect((await api(sb2, 'GET', '/api/v3/deliveries?deliveryId=1001', { token: t2 })).status).toBe(200);
      // Tokens of before the reset are gone.
      expect((await api(sb2, 'GET', '/api/v3/deliveries?deliveryId=1001', { token: t })).status).toBe(401);
    } finally {
      await sb2.close();
    }
  });

  it('Clock: advance refuses a negative or missing number of seconds and returns the new time', async () => {
    const bad = await fetch(`${sb.url}/_sandbox/clock/advance`, {
      method: 'POST',
      body: JSON.stringify({ seconds: -5 }),
    });
    expect(bad.status).toBe(400);
    const before = Date.parse((await admin(sb, 'clock', undefined, 'GET')).now);
    const after = Date.parse((await admin(sb, 'clock/advance', { seconds: 3600 })).now);
    expect(after - before).toBeGreaterThanOrEqual(3600_000);
    // The token from beforeAll has now expired.
    expect((await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001', { token })).status).toBe(401);
  });

  it('Clock: advance past the year 9999 is refused and leaves the sandbox working', async () => {
    // A JavaScript date ends at ±8.64e15 ms; a clock moved past it has no time to give.
    const sb2 = await start();
    try {
      for (const seconds of [1e300, 8.64e12]) {
        const res = await fetch(`${sb2.url}/_sandbox/clock/advance`, {
          method: 'POST',
          body: JSON.stringify({ seconds }),
        });
        expect(res.status, `seconds ${seconds}`).toBe(400);
      }
      const now = Date.parse((await admin(sb2, 'clock', undefined, 'GET')).now);
      expect(Math.abs(now - Date.now())).toBeLessThan(60_000);
      // A token still comes out and works.
      const t = await tokenFor(sb2);
      expect((await api(sb2, 'GET', '/api/v3/deliveries?deliveryId=1001', { token: t })).status).toBe(200);
    } finally {
      await sb2.close();
    }
  });

  it('--no-admin: without the test controls /_sandbox/ does not exist', async () => {
    const sb2 = await start({ admin: false });
    try {
      const res = await fetch(`${sb2.url}/_sandbox/clock/advance`, { method: 'POST', body: '{"seconds":1}' });
      expect(res.status).toBe(404);
    } finally {
      await sb2.close();
    }
  });
});
