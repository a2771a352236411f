/** With a data file (--data) a restart loses nothing; secrets are stored only as hashes. */
import { mkdtempSync, readFileSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoDeliveries } from '../domain/index';
import { api, loginFully, start, tokenRequest } from './support';

const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Persistence (--data FILE)', () => {
  it('Persistence: shipments, clients and refresh tokens survive a restart; secrets never appear in the file', async () => {
    const file = path.join(dir, 'sandbox.sqlite');
    const first = await start({ dataFile: file });
    const tokens = await loginFully(first);
    const inserted = await api(first, 'POST', '/api/v3/deliveries', {
      token: tokens.access_token,
      body: { deliveries: [{ ...(demoDeliveries()[0] as object), externalId: 'SURVIVES' }] },
    });
    expect(inserted.status).toBe(201);
    const id = inserted.body.data[0].deliveryId as number;
    await first.close();

    const bytes = readdirSync(dir)
      .map((f) => readFileSync(path.join(dir, f)).toString('latin1'))
      .join('');
    for (const secret of [tokens.access_token, tokens.refresh_token, first.demo.clientSecret, first.demo.password])
      expect(bytes).not.toContain(secret);

    const second = await start({ dataFile: file });
    try {
      // The access token is still valid (its expiry is stored), the refresh token still refreshes.
      const again = await api(second, 'GET', `/api/v3/deliveries?deliveryId=${id}`, { token: tokens.access_token });
      expect(again.status).toBe(200);
      expect(again.body.data[0].externalId).toBe('SURVIVES');
      const refreshed = await tokenRequest(second, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        redirect_uri: second.demo.redirectUri,
        scope: 'deliveries',
      });
      expect(refreshed.status).toBe(200);
      // New ids continue after the stored ones.
      const next = await api(second, 'POST', '/api/v3/deliveries', {
        token: tokens.access_token,
        body: { deliveries: [demoDeliveries()[0] as Record<string, unknown>] },
      });
      expect(next.body.data[0].deliveryId).toBe(id + 1);
    } finally {
      await second.close();
    }
  });
});
