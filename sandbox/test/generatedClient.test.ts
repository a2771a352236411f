/**
 * A client generated from the description by a maintained generator lists
 * and closes a shipment against the sandbox. As an integrator would (sandbox/README.md "Generating
 * a client"): openapi-typescript turns the sandbox's own /openapi.yaml into TypeScript types in a
 * temporary folder (never committed), a small program uses them with openapi-fetch, the TypeScript
 * compiler checks the program against the generated types (strict, nothing emitted on an error),
 * and the compiled program runs in its own Node process against the sandbox over real HTTP: it
 * exchanges an authorization code at the token endpoint, lists the shipments and closes one.
 * A description that says something else than the sandbox does fails one of the two steps; the
 * last test shows that the type check alone catches a wrong type in the description.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../index';
import { api, authorizeThroughPages, start, tokenFor } from './support';

const run = promisify(execFile);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
// The package's `bin` (its exports map `*.js` to `*.mjs`, so the file is found from package.json).
const GENERATOR = path.join(path.dirname(require.resolve('openapi-typescript/package.json')), 'bin', 'cli.js');
const TSC = require.resolve('typescript/bin/tsc');
// The generated program imports it from the temporary folder (node_modules linked there).
const CLIENT_LIBRARY = require.resolve('openapi-fetch');

/**
 * The integrator's program: only the generated `paths` type and openapi-fetch. Every request and
 * every field it reads is checked by the compiler against the description.
 */
const CLIENT_PROGRAM = `import createClient from 'openapi-fetch';
import type { paths } from './parcel-shipping.js';

const [baseUrl, code, clientId, clientSecret, redirectUri] = process.argv.slice(2) as [string, string, string, string, string];
const client = createClient<paths>({ baseUrl });

// The token endpoint takes a form and the client's credentials by HTTP Basic only.
const token = await client.POST('/connect/token/', {
  body: { grant_type: 'authorization_code', code, redirect_uri: redirectUri, scope: 'deliveries' },
  bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: 'Basic ' + Buffer.from(clientId + ':' + clientSecret).toString('base64'),
  },
});
if (!token.data) throw new Error('token: ' + token.response.status + ' ' + JSON.stringify(token.error));
const auth = { authorization: 'Bearer ' + token.data.access_token, accept: 'application/json' };

const listed = await client.GET('/api/v3/deliveries', { headers: auth });
if (!listed.data) throw new Error('list: ' + listed.response.status + ' ' + JSON.stringify(listed.error));
const open = listed.data.data.find((d) => d.deliveryState === 0);
if (open?.deliveryId === undefined) throw new Error('no open shipment in the list');

const closed = await client.PATCH('/api/v3/deliveries', {
  body: { deliveries: [{ deliveryId: open.deliveryId, closed: true }] },
  headers: auth,
});
if (!closed.data) throw new Error('close: ' + closed.response.status + ' ' + JSON.stringify(closed.error));

const after = await client.GET('/api/v3/deliveries', {
  params: { query: { deliveryId: String(open.deliveryId), fields: 'deliveryId,deliveryState,deliveryNumber' } },
  headers: auth,
});
if (!after.data) throw new Error('list after: ' + after.response.status + ' ' + JSON.stringify(after.error));

console.log(JSON.stringify({
  tokenType: token.data.token_type,
  scope: token.data.scope,
  listedStatus: listed.response.status,
  listed: listed.data.data.map((d) => d.deliveryId),
  closedId: open.deliveryId,
  closeStatus: closed.response.status,
  closedStates: closed.data.data.deliveries.map((d) => d.deliveryState),
  collectionOrders: closed.data.data.collectionOrders.length,
  after: after.data.data.map((d) => ({ id: d.deliveryId, state: d.deliveryState, number: d.deliveryNumber })),
}));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022', 'DOM'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    types: ['node'],
    outDir: 'out',
    noEmitOnError: true,
  },
  files: ['client.ts'],
};

/** A folder with the client program, node_modules linked to the repository's, and no types yet. */
function clientFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-generated-client-'));
  symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  writeFileSync(path.join(dir, 'client.ts'), CLIENT_PROGRAM);
  return dir;
}

/** `npx openapi-typescript <source> -o parcel-shipping.d.ts` in `dir`. */
async function generate(dir: string, source: string): Promise<void> {
  await run(process.execPath, [GENERATOR, source, '-o', path.join(dir, 'parcel-shipping.d.ts')], { cwd: dir });
}

/** `npx tsc -p .` in `dir`: the compiler's output, and whether it compiled. */
async function compile(dir: string): Promise<{ ok: boolean; output: string }> {
  try {
    const r = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir });
    return { ok: true, output: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` || e.message };
  }
}

let sb: Sandbox;
const folders: string[] = [];

beforeAll(async () => {
  sb = await start();
});
afterAll(async () => {
  await sb.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('a client generated from the description (openapi-typescript + openapi-fetch)', () => {
  it('is generated from the running sandbox’s /openapi.yaml, compiles strictly, and gets a token, lists shipments and closes one over HTTP', async () => {
    expect(existsSync(CLIENT_LIBRARY)).toBe(true);
    const dir = clientFolder();
    folders.push(dir);
    await generate(dir, `${sb.url}/openapi.yaml`);
    const compiled = await compile(dir);
    expect(compiled.output).toBe('');
    expect(compiled.ok).toBe(true);

    // The code comes from the login and consent pages, as a user of the integrator's app gives it.
    const { location } = await authorizeThroughPages(sb, {
      response_type: 'code',
      client_id: sb.demo.clientId,
      scope: 'deliveries',
      state: 'generated-client',
    });
    const code = location.searchParams.get('code')!;
    const out = await run(
      process.execPath,
      [path.join(dir, 'out', 'client.js'), sb.url, code, sb.demo.clientId, sb.demo.clientSecret, sb.demo.redirectUri],
      { cwd: dir },
    );
    const result = JSON.parse(out.stdout) as {
      tokenType: string;
      scope: string;
      listedStatus: number;
      listed: number[];
      closedId: number;
      closeStatus: number;
      closedStates: number[];
      collectionOrders: number;
      after: Array<{ id: number; state: number; number: string | null }>;
    };
    // Spec "Flow" 6: token_type `bearer`.
    expect(result.tokenType).toBe('bearer');
    expect(result.scope).toBe('deliveries');
    expect(result.listedStatus).toBe(200);
    expect(result.listed.length).toBeGreaterThan(1);
    expect(result.listed).toContain(result.closedId);
    expect(result.closeStatus).toBe(200);
    expect(result.closedStates).toEqual([1]);
    expect(result.collectionOrders).toBe(1);
    expect(result.after).toHaveLength(1);
    expect(result.after[0]).toMatchObject({ id: result.closedId, state: 1 });
    expect(result.after[0]!.number).toMatch(/\S/);

    // Seen from outside the generated client: the shipment is closed in the sandbox.
    const token = await tokenFor(sb);
    const check = await api(sb, 'GET', `/api/v3/deliveries?deliveryId=${result.closedId}&fields=deliveryState`, {
      token,
    });
    expect(check.body.data).toEqual([{ deliveryState: 1 }]);
  }, 180_000);

  it('a description that gives a field the wrong type fails the type check of the same program', async () => {
    const dir = clientFolder();
    folders.push(dir);
    const yaml = readFileSync(path.join(repo, 'sandbox/openapi/parcel-shipping.openapi.yaml'), 'utf8');
    // A shipment's state as text instead of the spec's number codes.
    const field = '        deliveryState:\n          type: integer\n          enum: [0, 1, 2, 3, 4, 5, 6, 10]\n';
    expect(yaml).toContain(field);
    const wrong = path.join(dir, 'wrong.openapi.yaml');
    writeFileSync(wrong, yaml.replace(field, '        deliveryState:\n          type: string\n'));
    await generate(dir, wrong);
    const compiled = await compile(dir);
    expect(compiled.ok).toBe(false);
    expect(compiled.output).toContain('client.ts');
    expect(compiled.output).toMatch(/error TS2367/);
  }, 180_000);
});
