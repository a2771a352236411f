/**
 * The "built-in sandbox" environment of the composition root (electron/station.ts): the sandbox
 * it was given (tests put two stations on one), or one it starts itself in `<dataDir>/sandbox.db`.
 */
import type { DemoSandbox } from '../auth/demoAccount';
import type { Logger } from '../rpc/rpcServer';
import { startEmbeddedSandbox, type StartEmbeddedSandbox } from './embeddedSandbox';

export async function wireSandbox(o: {
  /** A sandbox already running (StationOptions.sandbox). */
  sandbox?: DemoSandbox;
  startSandbox?: StartEmbeddedSandbox;
  sandboxControls?: 'secret' | 'open';
  dataDir: string;
  log: Logger;
}): Promise<{ sandbox: DemoSandbox; close(): Promise<void> }> {
  if (o.sandbox) return { sandbox: o.sandbox, close: () => Promise.resolve() };
  const own = await (o.startSandbox ?? startEmbeddedSandbox)({
    dataDir: o.dataDir,
    controls: o.sandboxControls ?? 'secret',
    log: o.log,
  });
  return { sandbox: own.sandbox, close: () => own.close() };
}
