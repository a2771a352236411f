/**
 * The contract over each of its message transports: the web host's WebSocket (browsers) and the
 * MessagePort bridge (the desktop app's page talking to the core in Electron's utility process),
 * here over a real worker_threads MessageChannel pair. The same cases run over both, against a
 * real station core (embedded sandbox, virtual printers); only the keychain is kept in memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { startHostedStation, type HostedStation } from '../../support/station';
import { messagePortClient, webSocketClient, type ContractClient } from './contractClient';

type Open = (hs: HostedStation) => Promise<ContractClient>;
const transports: [string, Open][] = [
  ['the WebSocket bridge', (hs) => webSocketClient(hs.host)],
  ['the MessagePort bridge', async (hs) => messagePortClient(hs.station.rpc, hs.log).client],
];

const result = (reply: unknown) =>
  (reply as { result: { ok: boolean; value?: unknown; error?: { code: string; message: string } } }).result;

describe.each(transports)('the contract over %s', (_name, open) => {
  let hs: HostedStation;
  let page: ContractClient;

  beforeAll(async () => {
    hs = await startHostedStation({ secrets: createMemorySecretStore(), printWaitMs: 5000 });
    page = await open(hs);
  });
  afterAll(async () => {
    page?.close();
    await hs?.close();
  });

  it('reads the station status', async () => {
    const status = result(await page.call('station.status', {}));
    expect(status).toMatchObject({
      ok: true,
      value: { version: '0.0.0-test', dataDir: hs.dataDir, service: { environment: 'sandbox', reachable: true } },
    });
  });

  it('delivers pushed events (the clock, settings changed by a call)', async () => {
    expect(await page.waitForEvent('station.tick')).toMatchObject({ now: expect.any(String) });
    expect(result(await page.call('settings.set', { language: 'cs' }))).toMatchObject({
      ok: true,
      value: { language: 'cs' },
    });
    expect(
      await page.waitForEvent('settings.changed', (s: { language: string | null }) => s.language === 'cs'),
    ).toMatchObject({ language: 'cs' });
  });

  it('a scan of a demo code closes its shipment and the label comes out of the virtual ZPL printer', async () => {
    const submitted = result(await page.call('scan.submit', { code: 'ORD-1001' }));
    expect(submitted.ok).toBe(true);
    const { scanId } = submitted.value as { scanId: string };
    const outcome = (await page.waitForEvent('scan.outcome', (o: { scanId: string }) => o.scanId === scanId)) as {
      kind: string;
      shipment: { barcodes: string[] };
    };
    expect(outcome.kind).toBe('printed');
    const received = result(await page.call('printing.printers.received', { printerId: 'virtual-zpl' }));
    const labels = received.value as { text: string | null }[];
    expect(labels).toHaveLength(1);
    expect(labels[0]!.text).toContain(outcome.shipment.barcodes[0]);
  });

  it('answers malformed messages with clear errors and keeps serving', async () => {
    page.sendText('this is not json');
    const notJson = await page.nextReply();
    page.sendNonText();
    const notText = await page.nextReply();
    page.sendText('"just a string"');
    const notObject = await page.nextReply();
    page.sendText(JSON.stringify({ t: 'reply', id: 7 }));
    const notCall = await page.nextReply();
    page.sendText(JSON.stringify({ t: 'call', method: 'station.status', params: {} }));
    const noId = await page.nextReply();
    const unknown = await page.call('shell.exec', { cmd: 'rm -rf /' });
    const badParams = await page.call('station.status', { verbose: true });
    const stillOk = await page.call('station.status', {});
    for (const r of [notJson, notText, notObject, notCall, noId])
      expect(r).toMatchObject({ t: 'reply', id: -1, result: { ok: false, error: { code: 'invalid_message' } } });
    expect(result(noId).error!.message).toBe('The call needs an integer id.');
    expect(result(unknown)).toMatchObject({
      ok: false,
      error: { code: 'unknown_method', message: 'Unknown method: shell.exec' },
    });
    expect(result(badParams)).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(result(badParams).error!.message).toContain('Invalid parameters for station.status');
    expect(result(stillOk)).toMatchObject({ ok: true });
  });

  it('refuses methods outside the contract and calls with bad params, and nothing happens', async () => {
    for (const method of [
      'scan.close',
      'printing.sendRaw',
      'accounts.exportSecrets',
      'constructor',
      '__proto__',
      'toString',
      42,
      null,
    ]) {
      expect(result(await page.call(method, {})), String(method)).toMatchObject({
        ok: false,
        error: { code: 'unknown_method' },
      });
    }
    for (const [method, params] of [
      ['scan.submit', { code: 'X'.repeat(201) }],
      ['scan.submit', 'ORD-1002'],
      ['printing.printers.received', { printerId: 'virtual-zpl', path: '/etc/passwd' }],
      ['settings.set', { language: 'klingonština' }],
    ] as const) {
      expect(result(await page.call(method, params)), `${method} ${JSON.stringify(params)}`).toMatchObject({
        ok: false,
        error: { code: 'invalid_params' },
      });
    }
    // Only the one label of the scan above was printed.
    expect(result(await page.call('printing.printers.received', { printerId: 'virtual-zpl' })).value).toHaveLength(1);
    expect(result(await page.call('scan.counters', {}))).toMatchObject({ ok: true, value: { scanned: 1 } });
  });
});

describe('the MessagePort bridge and its ports', () => {
  let hs: HostedStation;
  beforeAll(async () => {
    hs = await startHostedStation({ secrets: createMemorySecretStore() });
  });
  afterAll(async () => hs?.close());

  it('a page that goes away (its port closed) takes nothing down: another page is served, with events', async () => {
    const gone = messagePortClient(hs.station.rpc, hs.log);
    expect(result(await gone.client.call('station.status', {})).ok).toBe(true);
    gone.client.close();
    const next = messagePortClient(hs.station.rpc, hs.log);
    expect(await next.client.waitForEvent('station.tick')).toBeTruthy();
    expect(result(await next.client.call('scan.pending', {}))).toMatchObject({ ok: true, value: { scans: [] } });
    next.client.close();
    expect(hs.log.lines.filter((l) => l.includes('rpc port could not send'))).toEqual([]);
  });

  it('stopping the bridge closes the page’s port', async () => {
    const served = messagePortClient(hs.station.rpc, hs.log);
    const closed = new Promise<boolean>((resolve) => served.pagePort.once('close', () => resolve(true)));
    served.stop();
    expect(await closed).toBe(true);
  });
});
