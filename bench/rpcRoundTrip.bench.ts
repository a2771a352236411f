/**
 * RPC round trip over the WebSocket bridge: a real station core and web host on 127.0.0.1, a ws
 * client holding the launch token (presented as a WebSocket subprotocol), `station.status` calls. Sequential calls give the latency (p50/p99);
 * 32 calls in flight give the throughput.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { rpcSubprotocols, startWebHost } from '../electron/host/webHost';
import { createLogger } from '../electron/base/log';
import { createStation } from '../electron/station';
import { summarize } from './stats';

export async function run(): Promise<Record<string, number>> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-rpc-'));
  const staticDir = mkdtempSync(path.join(os.tmpdir(), 'bench-static-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html>');
  const log = createLogger({ dataDir });
  const station = await createStation({ dataDir, host: 'web', version: 'bench', log });
  const host = await startWebHost({ rpc: station.rpc, log, staticDir });
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/rpc`, rpcSubprotocols(host.token), {
    headers: { origin: host.origin },
  });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const waiting = new Map<number, () => void>();
  ws.on('message', (d) => {
    // A text frame arrives as one Buffer (the socket's binaryType is the default 'nodebuffer').
    const m = JSON.parse((d as Buffer).toString()) as { t: string; id: number };
    if (m.t === 'reply') {
      waiting.get(m.id)?.();
      waiting.delete(m.id);
    }
  });
  let id = 0;
  const call = () =>
    new Promise<void>((resolve) => {
      const myId = ++id;
      waiting.set(myId, resolve);
      ws.send(JSON.stringify({ t: 'call', id: myId, method: 'station.status', params: {} }));
    });

  for (let i = 0; i < 500; i++) await call(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < 5000; i++) {
    const t0 = performance.now();
    await call();
    samples.push(performance.now() - t0);
  }
  const lat = summarize(samples);

  const total = 20000;
  const inFlight = 32;
  const t0 = performance.now();
  let sent = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (sent < total) {
        sent++;
        await call();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;

  ws.close();
  await host.close();
  await station.close();
  return {
    sequential_calls: samples.length,
    latency_p50_us: lat.p50 * 1000,
    latency_p99_us: lat.p99 * 1000,
    pipelined_calls: total,
    pipelined_in_flight: inFlight,
    throughput_calls_per_s: total / seconds,
  };
}
