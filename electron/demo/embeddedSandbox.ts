/**
 * The built-in sandbox the station starts itself when it is given none (StationOptions.sandbox):
 * a real sandbox of the service on a free loopback port, kept in `<dataDir>/sandbox.db`. A seam
 * of the composition root (StationOptions.startSandbox), so a host or a test can swap it.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { startSandbox } from '../../sandbox/index';
import type { DemoSandbox } from '../auth/demoAccount';
import type { Logger } from '../rpc/rpcServer';
import { sqliteBinding } from '../store/database';

export interface EmbeddedSandbox {
  sandbox: DemoSandbox;
  close(): Promise<void>;
}

export type StartEmbeddedSandbox = (o: {
  dataDir: string;
  controls: 'secret' | 'open';
  log: Logger;
}) => Promise<EmbeddedSandbox>;

export const startEmbeddedSandbox: StartEmbeddedSandbox = async ({ dataDir, controls, log }) => {
  // The test controls (/_sandbox/) answer only this process unless asked to be open (see StationOptions).
  const adminSecret = controls === 'open' ? undefined : randomBytes(32).toString('base64url');
  const own = await startSandbox({
    port: 0,
    dataFile: path.join(dataDir, 'sandbox.db'),
    seed: 'demo',
    adminSecret,
    // Only requests addressed to 127.0.0.1:<port> or localhost:<port> (no DNS rebinding).
    onlyOwnHost: true,
    // The demo company's client secret and password are made anew at every launch and known only
    // to this process (the public ones log nobody in), unless the controls are open (tests).
    demoSecrets:
      controls === 'open'
        ? undefined
        : { clientSecret: randomBytes(24).toString('base64url'), password: randomBytes(24).toString('base64url') },
    // The same driver binary as station.db (the Electron build under Electron).
    sqliteBinding: sqliteBinding(),
  });
  log.info('embedded sandbox started', { url: own.url });
  return { sandbox: { url: own.url, demo: own.demo, adminSecret }, close: () => own.close() };
};
