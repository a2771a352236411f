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
import { t, type Lang } from '../i18n';
import { esc } from '../oauth/pages';
import { rootMessages as m } from './rootPageMessages';

/** The package files the page loads, with their content types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=UTF-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=UTF-8',
};

/**
 * Where the viewer's files are, or null: swagger-ui-dist is a development package (`npm run sandbox`
 * from the repository has it); the station's installers leave its 12 MB out, and their embedded
 * sandbox's page then links to the description itself.
 */
export function swaggerUiDistDir(): string | null {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch {
    return null;
  }
}

const cache = new Map<string, Buffer>();
function asset(dir: string, name: string): Buffer {
  const file = path.join(dir, name);
  const hit = cache.get(file);
  if (hit) return hit;
  const body = readFileSync(file);
  cache.set(file, body);
  return body;
}

const notShipped = (ctx: { lang: Lang }): Reply => ({
  kind: 'raw',
  status: 200,
  contentType: 'text/html; charset=UTF-8',
  body: `<!doctype html>
<html lang="${ctx.lang}"><head><meta charset="utf-8"><title>${esc(t(m.reference, ctx.lang))}</title></head>
<body><p>${esc(t(m.referenceNotShipped, ctx.lang))}
<a href="/openapi.yaml">/openapi.yaml</a>, <a href="/openapi.json">/openapi.json</a>.</p></body></html>`,
});

// No inline script: the page's own start-up is a file too.
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true });
});
`;

/**
 * `viewerDir` finds the viewer's files (null: not shipped); a test passes its own to see the
 * installers' page without uninstalling the package.
 */
export function addReferenceRoutes(router: Router, viewerDir: () => string | null = swaggerUiDistDir): void {
  router.add(
    'GET',
    '/reference',
    (ctx): Reply =>
      viewerDir() === null
        ? notShipped(ctx)
        : {
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
          },
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
      (): Reply => {
        const dir = viewerDir();
        return dir
          ? { kind: 'raw', status: 200, body: asset(dir, name), contentType }
          : {
              kind: 'raw',
              status: 404,
              body: 'The reference viewer is not part of this build.\n',
              contentType: 'text/plain; charset=UTF-8',
            };
      },
      {
        api: false,
      },
    );
  }
}
