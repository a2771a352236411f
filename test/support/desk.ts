/**
 * A desk for the e2e suites: a hosted station (the real core behind the web host), an RPC socket
 * to it and Chromium, opened together and closed together; the screenshot folder made.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser';
import { connectRpc, type RpcSocket } from './rpcSocket';
import { repoRoot, startHostedStation, type HostedStation } from './station';

export interface Desk {
  hs: HostedStation;
  rpc: RpcSocket;
  browser: Browser;
}

export const screenshotsDir = path.join(repoRoot, 'test-results', 'screenshots');

export async function openDesk(opts: Parameters<typeof startHostedStation>[0] = {}): Promise<Desk> {
  const hs = await startHostedStation(opts);
  const rpc = await connectRpc(hs.host);
  const browser = await launchChromium();
  mkdirSync(screenshotsDir, { recursive: true });
  return { hs, rpc, browser };
}

export async function closeDesk(d: Partial<Desk>): Promise<void> {
  await d.browser?.close();
  d.rpc?.close();
  await d.hs?.close();
}
