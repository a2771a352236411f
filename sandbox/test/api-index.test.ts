/** Spec "GET /api/": unversioned, no authentication, ETag and If-None-Match -> 304. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../index';
import { api, FORMATS, start } from './support';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start();
});
afterAll(() => sb.close());

describe('GET /api/', () => {
  it.each(FORMATS)('GET /api/: 200 without authentication, with an ETag (%s)', async (fmt) => {
    const r = await api(sb, 'GET', '/api/', { fmt });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'success', message: 'API is running' });
    expect(r.headers.get('etag')).toMatch(/^".+"$/);
  });

  it('GET /api/: If-None-Match with the ETag -> 304 with an empty body; another tag -> 200', async () => {
    const first = await api(sb, 'GET', '/api/');
    const etag = first.headers.get('etag')!;
    const again = await api(sb, 'GET', '/api/', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect((await api(sb, 'GET', '/api/', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('GET /api/: a token is not needed, and an invalid one does not matter', async () => {
    expect((await api(sb, 'GET', '/api/', { token: 'nonsense' })).status).toBe(200);
  });
});
