/**
 * `npm run sandbox -- --port N [--data FILE] [--seed demo|none] [--no-admin] [--host H]`:
 * runs the sandbox on its own and prints where it is and how to log in.
 */
import { parseArgs } from 'node:util';
import { startSandbox } from './index';

function fail(message: string): never {
  console.error(`sandbox: ${message}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      data: { type: 'string' },
      seed: { type: 'string', default: 'demo' },
      'no-admin': { type: 'boolean', default: false },
    },
  });
} catch (err) {
  fail(
    `${(err as Error).message}\nusage: npm run sandbox -- --port N [--data FILE] [--seed demo|none] [--no-admin] [--host H]`,
  );
}
const { values } = parsed;
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0-65535, not "${values.port}"`);
if (values.seed !== 'demo' && values.seed !== 'none') fail(`--seed must be demo or none, not "${values.seed}"`);

const sandbox = await startSandbox({
  port,
  host: values.host,
  dataFile: values.data,
  seed: values.seed,
  admin: !values['no-admin'],
}).catch((err: unknown) => fail((err as Error).message));
const d = sandbox.demo;
console.log(`Sandbox running at ${sandbox.url}  (${values.data ? `data in ${values.data}` : 'in memory'})
  demo login:     ${d.username} / ${d.password}  (company ${d.companyName})
  demo client:    client_id=${d.clientId}  client_secret=${d.clientSecret}
  redirect_uri:   ${d.redirectUri}
  scope:          ${d.scope}
  try:            ${sandbox.url}/  (root page with links)${values['no-admin'] ? '' : `\n  test controls:  ${sandbox.url}/_sandbox/...`}`);

const stop = () => void sandbox.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
