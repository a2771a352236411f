/**
 * Fleet metrics as a warehouse's Prometheus sees them: the real station core (embedded sandbox, a
 * virtual ZPL printer on TCP) with its metrics endpoint turned on through the RPC as Settings
 * does, scraped by Debian's real `prometheus` server started here on a loopback port with a scrape
 * config this test writes (bearer token from a file, every second, storage in a temp folder).
 * After some scans, Prometheus' query API must return the station's scan counter at the number of
 * scans made. The endpoint refuses a scraper without the desk's token, and what it exposes carries
 * nothing personal (no scanned code, recipient, shipment number or barcode). The Grafana
 * dashboard in docs/metrics/ queries only metric names a real scrape shows.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { printerSettings } from '../../../shared/contract/printing';
import type { EventPayload } from '../../../shared/contract';
import { freePort } from '../../support/freePort';
import { connectRpc, type RpcSocket } from '../../support/rpcSocket';
import { needs, prometheusPath } from '../../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../../support/station';

const SCANS = ['ORD-1001', 'ORD-1003', 'ORD-1005'];
const dashboardFile = path.join(repoRoot, 'docs', 'metrics', 'grafana-dashboard.json');
const scrapeExample = path.join(repoRoot, 'docs', 'metrics', 'prometheus.yml');

/** Sample names of a Prometheus text exposition (what a query can name), HELP/TYPE lines left out. */
function sampleNames(exposition: string): Set<string> {
  return new Set(
    exposition
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(l)![0]),
  );
}

describe('the metrics endpoint, scraped by a real Prometheus', { timeout: 180_000 }, () => {
  let printer: VirtualZplPrinter;
  let hs: HostedStation;
  let rpc: RpcSocket;
  let url: string;
  let token: string;
  const outcomes: EventPayload<'scan.outcome'>[] = [];
  /** The test's scans, made once (by the Prometheus test, or by the first test that needs them when it was skipped). */
  async function ensureScans() {
    if (outcomes.length > 0) return;
    for (const code of SCANS) {
      const outcome = rpc.waitFor('scan.outcome', (o) => o.code === code, 60_000);
      await rpc.call('scan.submit', { code });
      outcomes.push(await outcome);
    }
  }

  beforeAll(async () => {
    printer = await startVirtualZplPrinter();
    hs = await startHostedStation({ secrets: createMemorySecretStore() });
    rpc = await connectRpc(hs.host);
    await rpc.call('printing.printers.save', {
      id: 'desk-zebra',
      name: 'Desk Zebra',
      connection: { kind: 'zpl-tcp', host: printer.host, port: printer.port },
      settings: printerSettings.parse({}),
    });
    await rpc.call('printing.routes.set', {
      carriers: {},
      defaultRoute: { format: 'zpl', printerId: 'desk-zebra' },
      protocolPrinterId: null,
    });
    const state = await rpc.call('metrics.set', { enabled: true, address: '127.0.0.1', port: await freePort() });
    expect(state.error).toBeNull();
    expect(state.lan).toBe(false);
    url = state.url!;
    token = (await rpc.call('metrics.token', {})).token;
  });
  afterAll(async () => {
    rpc?.close();
    await hs?.close();
    await printer?.close();
  });

  it('refuses a scraper without the desk token, and anything but GET /metrics', async () => {
    const missing = await fetch(url);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const wrong = await fetch(url, { headers: { authorization: 'Bearer not-the-desk-token' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    expect(await wrong.text()).not.toContain('label_station_');
    const other = await fetch(new URL('/other', url), { headers: { authorization: `Bearer ${token}` } });
    expect(other.status).toBe(404);
    const post = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(post.status).toBe(405);
    const ok = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    // The token is a secret: never in the station's log.
    expect(hs.log.lines.join('\n')).not.toContain(token);
  });

  it.skipIf(!needs('prometheus'))(
    'Prometheus scrapes the desk with its token and its query API returns the number of scans made',
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'prometheus-test-'));
      const promPort = await freePort();
      const tokenFile = path.join(dir, 'desk.token');
      writeFileSync(tokenFile, token);
      chmodSync(tokenFile, 0o600);
      const target = new URL(url);
      writeFileSync(
        path.join(dir, 'prometheus.yml'),
        [
          'global:',
          '  scrape_interval: 1s',
          '  scrape_timeout: 1s',
          'scrape_configs:',
          '  - job_name: label-station',
          '    metrics_path: /metrics',
          '    authorization:',
          '      type: Bearer',
          `      credentials_file: ${tokenFile}`,
          '    static_configs:',
          `      - targets: ['${target.host}']`,
          '',
        ].join('\n'),
      );
      let prom: ChildProcess | null = null;
      let promLog = '';
      const api = `http://127.0.0.1:${promPort}`;
      try {
        prom = spawn(
          prometheusPath()!,
          [
            `--config.file=${path.join(dir, 'prometheus.yml')}`,
            `--storage.tsdb.path=${path.join(dir, 'data')}`,
            `--web.listen-address=127.0.0.1:${promPort}`,
            '--log.level=warn',
          ],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        prom.stdout!.on('data', (d: Buffer) => (promLog += d.toString()));
        prom.stderr!.on('data', (d: Buffer) => (promLog += d.toString()));
        await expect
          .poll(
            () =>
              fetch(`${api}/-/ready`).then(
                (r) => r.status,
                () => 0,
              ),
            { timeout: 60_000, interval: 250 },
          )
          .toBe(200);

        await ensureScans();
        expect(outcomes.map((o) => o.kind)).toEqual(['printed', 'printed', 'printed']);

        const query = async (q: string): Promise<number | null> => {
          const r = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(q)}`);
          const body = (await r.json()) as { status: string; data: { result: { value: [number, string] }[] } };
          const v = body.data.result[0]?.value[1];
          return v === undefined ? null : Number(v);
        };
        await expect
          .poll(() => query('sum(label_station_scans_total{job="label-station"})'), { timeout: 60_000, interval: 500 })
          .toBe(SCANS.length);
        // The same scans, by outcome, as printed labels, and the target up with its token.
        expect(await query('sum(label_station_scans_total{outcome="printed"})')).toBe(SCANS.length);
        expect(await query('up{job="label-station"}')).toBe(1);
      } finally {
        prom?.kill('SIGTERM');
        if (prom && prom.exitCode === null) await new Promise((r) => prom!.once('exit', r));
        rmSync(dir, { recursive: true, force: true });
        if (promLog.trim()) console.log(`prometheus said:\n${promLog.slice(-2000)}`);
      }
    },
  );

  it.skipIf(!needs('prometheus'))(
    "the scrape example in docs/metrics is a config Prometheus' own checker takes",
    () => {
      // Syntax only: the example's token files are the warehouse's, not this computer's.
      const prometheus = prometheusPath()!;
      const promtool = path.isAbsolute(prometheus) ? path.join(path.dirname(prometheus), 'promtool') : 'promtool';
      const r = spawnSync(promtool, ['check', 'config', '--syntax-only', scrapeExample], { encoding: 'utf8' });
      expect(r.status, r.stdout + r.stderr).toBe(0);
    },
  );

  it('exposes nothing personal: no scanned code, recipient, shipment number or barcode', async () => {
    await ensureScans();
    const text = await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(text).toContain('label_station_scans_total');
    const personal = outcomes.flatMap((o) => [
      o.code,
      ...('shipment' in o
        ? [
            o.shipment.recipientName,
            o.shipment.deliveryNumber ?? '',
            ...o.shipment.barcodes,
            String(o.shipment.deliveryId),
          ]
        : []),
    ]);
    expect(personal.filter((p) => p.length >= 4)).not.toHaveLength(0);
    for (const p of personal.filter((x) => x.length >= 4)) {
      // Label values only: the numbers of samples may contain any digits.
      const labelValues = [...text.matchAll(/="([^"]*)"/g)].map((m) => m[1]);
      expect(labelValues, `label value carries ${p}`).not.toContain(p);
      expect(text.includes(`"${p}`) || text.includes(`${p}"`), `exposition carries ${p}`).toBe(false);
    }
    for (const code of SCANS) expect(text).not.toContain(code);
  });

  it('the Grafana dashboard parses and queries only metric names a real scrape shows', async () => {
    // Counters and histograms appear once something was counted: a desk that has scanned.
    await ensureScans();
    const dashboard = JSON.parse(readFileSync(dashboardFile, 'utf8')) as { panels: { targets?: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(5);
    const used = new Set(exprs.flatMap((e) => e.match(/\blabel_station_[a-zA-Z0-9_]+/g) ?? []));
    // Label outcomes come with the queue's gathered job changes, a moment after the scan's outcome.
    const missing = async () => {
      const text = await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).text();
      const exposed = sampleNames(text);
      return [...used].filter((n) => !exposed.has(n));
    };
    await expect.poll(missing, { timeout: 15_000, interval: 250 }).toEqual([]);
  });
});
