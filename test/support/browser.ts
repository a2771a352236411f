/** Debian's Chromium under playwright-core (its own browser download is impossible here). */
import { chromium, type Browser } from 'playwright-core';
import { chromiumPath } from './services';

/** `args`: switches a suite needs beyond the rig's own (e.g. the camera suite's fake capture device). */
export function launchChromium(o: { args?: readonly string[] } = {}): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('Chromium not found');
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(o.args ?? []),
    ],
  });
}
