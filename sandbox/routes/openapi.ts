/**
 * GET /openapi.yaml and /openapi.json: the OpenAPI 3.1 description of the service as this sandbox
 * implements it (sandbox/openapi/parcel-shipping.openapi.yaml), for client generators, Postman
 * and Insomnia. Both are the repository's document with its YAML anchors expanded (so no importer
 * needs anchor support), with `servers` and the OAuth endpoints set to the address the client used,
 * so an imported description calls this sandbox whatever its port.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import type { Reply } from '../http/envelope';
import type { Router } from '../http/router';

const FILE = path.join('sandbox', 'openapi', 'parcel-shipping.openapi.yaml');

/** Walks up from this module (source or bundle) and from the working directory to the repository's copy. */
function findOpenApiFile(): string | null {
  for (const start of [path.dirname(fileURLToPath(import.meta.url)), process.cwd()]) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      if (existsSync(path.join(dir, FILE))) return path.join(dir, FILE);
      if (path.dirname(dir) === dir) break;
    }
  }
  return null;
}

let cached: Record<string, unknown> | null = null;

/** The description as a plain object (anchors expanded). */
function openApiDocument(): Record<string, unknown> | null {
  if (cached) return cached;
  const file = findOpenApiFile();
  if (!file) return null;
  cached = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return cached;
}

/** With `servers` and the OAuth endpoints absolute on the address the client used (importers resolve relative ones unevenly). */
function served(baseUrl: string): Record<string, unknown> | null {
  const doc = openApiDocument();
  if (!doc) return null;
  type Flows = Record<string, Record<string, string>>;
  const copy = structuredClone(doc) as {
    servers?: unknown;
    components?: { securitySchemes?: { oauth2?: { flows?: Flows } } };
  };
  copy.servers = [{ url: baseUrl, description: 'This sandbox' }];
  for (const flow of Object.values(copy.components?.securitySchemes?.oauth2?.flows ?? {})) {
    for (const key of ['authorizationUrl', 'tokenUrl', 'refreshUrl'])
      if (flow[key]?.startsWith('/')) flow[key] = baseUrl + flow[key];
  }
  return copy;
}

const missing: Reply = {
  kind: 'raw',
  status: 404,
  body: `Not found: ${FILE} is not shipped with this build.\n`,
  contentType: 'text/plain; charset=UTF-8',
};

export function addOpenApiRoutes(router: Router): void {
  router.add(
    'GET',
    '/openapi.yaml',
    (ctx) => {
      const doc = served(ctx.baseUrl);
      return doc
        ? {
            kind: 'raw',
            status: 200,
            body: stringify(doc, { aliasDuplicateObjects: false }),
            contentType: 'application/yaml; charset=UTF-8',
          }
        : missing;
    },
    { api: false },
  );
  router.add(
    'GET',
    '/openapi.json',
    (ctx) => {
      const doc = served(ctx.baseUrl);
      return doc
        ? {
            kind: 'raw',
            status: 200,
            body: JSON.stringify(doc, null, 2),
            contentType: 'application/json; charset=UTF-8',
          }
        : missing;
    },
    { api: false },
  );
}
