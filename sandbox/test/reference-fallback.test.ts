/**
 * /reference when swagger-ui-dist cannot be resolved (the station's installers leave the 12 MB
 * development package out): the page still answers, in the reader's language, and links
 * to the description itself; the viewer's files are a plain 404, and nothing points to them.
 * The routes are served over real HTTP by the sandbox's own server with a viewer finder that finds
 * nothing, the seam addReferenceRoutes takes for it.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router } from '../http/router';
import { createSandboxServer } from '../http/server';
import { addReferenceRoutes, swaggerUiDistDir } from '../routes/reference';

let server: http.Server;
let url: string;

beforeAll(async () => {
  const router = new Router();
  addReferenceRoutes(router, () => null);
  server = createSandboxServer(router, () => url);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('reference page without the viewer package', () => {
  it('the development checkout has the viewer (so the page tested here is only the installers’ one)', () => {
    expect(swaggerUiDistDir()).not.toBeNull();
  });

  it('GET /reference: an English page linking to /openapi.yaml and /openapi.json, and no viewer script', async () => {
    const res = await fetch(`${url}/reference`, { headers: { 'accept-language': 'en' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('The reference viewer is not part of this build. The description itself:');
    expect(html).toContain('<a href="/openapi.yaml">/openapi.yaml</a>');
    expect(html).toContain('<a href="/openapi.json">/openapi.json</a>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('swagger-ui');
  });

  it('GET /reference in Czech: the same page in Czech', async () => {
    const res = await fetch(`${url}/reference`, { headers: { 'accept-language': 'cs-CZ,cs;q=0.9' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="cs">');
    expect(html).toContain('<title>Referenční příručka API (OpenAPI)</title>');
    expect(html).toContain('Prohlížeč příručky není součástí tohoto sestavení. Samotný popis:');
    expect(html).toContain('<a href="/openapi.yaml">/openapi.yaml</a>');
  });

  it.each(['swagger-ui.css', 'swagger-ui-bundle.js'])('GET /reference/%s: 404 in plain text', async (name) => {
    const res = await fetch(`${url}/reference/${name}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(await res.text()).toBe('The reference viewer is not part of this build.\n');
  });
});
