/**
 * A scan whose answer was lost with the page's socket (renderer/src/state/scanStore.ts): the page
 * asks the core by the name it gave the scan (`scan.submit`'s `ref`) whether it arrived
 * (`scan.submitted`). The answer comes from the scan log, so it holds over a restart of the core
 * (a crash is one way a socket closes). Real station core and web host, over a real WebSocket.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { connectRpc, StationCallError, type RpcSocket } from '../../support/rpcSocket';
import { startHostedStation, type HostedStation } from '../../support/station';

const secrets = createMemorySecretStore();
const open: { hs: HostedStation; rpc: RpcSocket }[] = [];
async function start(dataDir?: string) {
  const hs = await startHostedStation({ secrets, printWaitMs: 5000, ...(dataDir ? { dataDir } : {}) });
  const rpc = await connectRpc(hs.host);
  open.push({ hs, rpc });
  return { hs, rpc };
}
afterAll(async () => {
  for (const { hs, rpc } of open) {
    rpc.close();
    await hs.close().catch(() => undefined);
  }
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof StationCallError ? e.code : String(e)),
  );

describe('scan.submitted: did the scan a page sent arrive?', () => {
  it('names the scan sent under a reference, null for one never sent, also after the core restarted', async () => {
    const first = await start();
    const ref = 'Zl8uT-koN_0123456789ab';
    const { scanId } = await first.rpc.call('scan.submit', { code: 'ORD-1001', ref });
    const other = await first.rpc.call('scan.submit', { code: 'ORD-1003', ref: 'another-page-scan-000' });
    expect(other.scanId).not.toBe(scanId);
    expect(await first.rpc.call('scan.submitted', { ref })).toEqual({ scanId });
    expect(await first.rpc.call('scan.submitted', { ref: 'another-page-scan-000' })).toEqual({ scanId: other.scanId });
    expect(await first.rpc.call('scan.submitted', { ref: 'never-sent-by-anyone' })).toBeNull();
    // A scan sent without a reference (an older page) is found by none.
    await first.rpc.call('scan.submit', { code: 'ORD-1002' });
    expect(await first.rpc.call('scan.submitted', { ref: 'never-sent-by-anyone' })).toBeNull();
    first.rpc.close();
    await first.hs.close();

    const again = await start(first.hs.dataDir);
    expect(await again.rpc.call('scan.submitted', { ref })).toEqual({ scanId });
    expect(await again.rpc.call('scan.submitted', { ref: 'never-sent-by-anyone' })).toBeNull();
  });

  it('refuses a reference that is not one (too short, too long, diacritics, a path, a wildcard), and logs no scan for it', async () => {
    const { rpc } = await start();
    const before = (await rpc.call('scan.recent', {})).scans.length;
    for (const ref of ['short', 'x'.repeat(65), 'žluťoučký-kůň-úpěl-ódy', '../../etc/passwd-xxxx', '%'.repeat(20), ''])
      expect(await refusal(rpc.call('scan.submit', { code: 'ORD-1004', ref }))).toBe('invalid_params');
    for (const ref of ['short', '%'.repeat(20), 'a\u0000'.repeat(10)])
      expect(await refusal(rpc.call('scan.submitted', { ref }))).toBe('invalid_params');
    expect((await rpc.call('scan.recent', {})).scans.length).toBe(before);
  });
});
