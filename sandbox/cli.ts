/** `npm run sandbox -- --port N`: runs the sandbox service on its own. */
import { parseArgs } from 'node:util';
import { startSandbox } from './index';

const { values } = parseArgs({ options: { port: { type: 'string', default: '8080' } } });
const sandbox = await startSandbox({ port: Number(values.port) });
console.log(`Sandbox running at ${sandbox.url}`);
