/**
 * The sandbox a station embeds gets this launch's demo credentials: the real
 * station (dist/node/host.mjs) in a child process starts its sandbox with a fresh demo client
 * secret and password, handed over in process. The public ones (`demo-client` / `demo-secret`,
 * printed in the sandbox's README and root page) no longer authenticate at its token endpoint,
 * while the station's own demo company logs in, scans and prints, also after a demo reset
 * (which seeds the public ones again and must not bring them back).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { WebHost } from '../../../electron/host/webHost';
import { hostBuilt, startChildHost, type ChildHost } from '../../support/childHost';
import { connectRpc, type RpcSocket } from '../../support/rpcSocket';

/** The token endpoint's answer to the public demo client's credentials (any grant). */
async function publicClientAnswer(sandboxUrl: string): Promise<number> {
  const res = await fetch(`${sandboxUrl}/connect/token/`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=refresh_token&refresh_token=0000000000000000000000000000000000000000',
  });
  await res.text();
  return res.status;
}

async function scanPrints(rpc: RpcSocket, code: string) {
  const { scanId } = await rpc.call('scan.submit', { code });
  return (await rpc.waitFor('scan.outcome', (o) => o.scanId === scanId, 30_000)).kind;
}

describe.skipIf(!hostBuilt && !process.env.CI)("the embedded sandbox's demo credentials", { timeout: 120_000 }, () => {
  let ch: ChildHost | null = null;
  let rpc: RpcSocket | null = null;
  afterAll(async () => {
    rpc?.close();
    await ch?.stop();
    if (ch) rmSync(ch.dataDir, { recursive: true, force: true });
  });

  it('are made per launch: the public demo secret is refused (401 invalid_client), the station still logs in, scans and prints, after a reset too', async () => {
    ch = await startChildHost();
    rpc = await connectRpc(ch.host as WebHost);
    const sandboxUrl = (await rpc.call('station.status', {})).service.baseUrl;
    // 401 is the client refused; 400 (invalid_grant) would mean the public secret was taken.
    expect(await publicClientAnswer(sandboxUrl)).toBe(401);
    expect(await scanPrints(rpc, 'ORD-1001')).toBe('printed');

    await rpc.call('demo.reset', {});
    expect(await publicClientAnswer(sandboxUrl)).toBe(401);
    const [demo] = (await rpc.call('accounts.list', {})).filter((a) => a.demo);
    expect(demo!.login.state).toBe('logged-in');
    expect(await scanPrints(rpc, 'ORD-1002')).toBe('printed');
  });
});
