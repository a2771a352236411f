/**
 * GET /reference: the API reference page, Swagger UI (swagger-ui-dist, a maintained OpenAPI
 * viewer) rendering /openapi.json. Its script and styles are served from the package under
 * /reference/, never from a CDN, so the page works offline like the rest of the sandbox.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Reply } from '../http/envelope';
import type { Router } from '../http/router';
import { t } from '../i18n';
import { esc } from '../oauth/pages';
import { rootMessages as m } from './rootPageMessages';

/** The package files the page loads, with their content types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=UTF-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=UTF-8',
};

function distDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

const cache = new Map<string, Buffer>();
function asset(name: string): Buffer {
  const hit = cache.get(name);
  if (hit) return hit;
  const body = readFileSync(path.join(distDir(), name));
  cache.set(name, body);
  return body;
}

// No inline script: the page's own start-up is a file too.
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true });
});
`;

export function addReferenceRoutes(router: Router): void {
  router.add(
    'GET',
    '/reference',
    (ctx): Reply => ({
      kind: 'raw',
      status: 200,
      contentType: 'text/html; charset=UTF-8',
      body: `<!doctype html>
<html lang="${ctx.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(t(m.reference, ctx.lang))}</title>
<link rel="stylesheet" href="/reference/swagger-ui.css"></head>
<body><div id="reference"></div>
<script src="/reference/swagger-ui-bundle.js"></script>
<script src="/reference/init.js"></script>
</body></html>`,
    }),
    { api: false },
  );
  router.add(
    'GET',
    '/reference/init.js',
    (): Reply => ({ kind: 'raw', status: 200, body: INIT, contentType: 'text/javascript; charset=UTF-8' }),
    { api: false },
  );
  for (const [name, contentType] of Object.entries(ASSETS)) {
    router.add(
      'GET',
      `/reference/${name}`,
      (): Reply => ({ kind: 'raw', status: 200, body: asset(name), contentType }),
      {
        api: false,
      },
    );
  }
}
