/**
 * A keyboard-wedge barcode scanner, for Playwright tests (a mock of hardware that cannot exist
 * here). A real scanner's keystrokes reach the page stamped with the time the operating system
 * saw them, a few milliseconds apart, however busy the machine is when the page handles them.
 * `page.keyboard.type(code, { delay })` cannot give that: its keys are stamped when they are
 * dispatched, so on a loaded machine a "5 ms" burst arrives with gaps of tens of milliseconds.
 * Here each key goes through the DevTools protocol with its own time stamp (Input.dispatchKeyEvent
 * `timestamp`), `gapMs` apart, which is what the page sees as `event.timeStamp`.
 */
import type { CDPSession, Page } from 'playwright-core';

export interface WedgeScanner {
  /** Types `code` then Enter, one key every `gapMs` ms by the keys' time stamps. */
  scan(code: string, gapMs?: number): Promise<void>;
}

/** Windows virtual key codes for the characters barcodes hold (what a US-layout wedge sends). */
function keyCodeOf(ch: string): { code: string; vk: number; shift: boolean } {
  if (/[a-z]/.test(ch)) return { code: `Key${ch.toUpperCase()}`, vk: ch.toUpperCase().charCodeAt(0), shift: false };
  if (/[A-Z]/.test(ch)) return { code: `Key${ch}`, vk: ch.charCodeAt(0), shift: true };
  if (/[0-9]/.test(ch)) return { code: `Digit${ch}`, vk: ch.charCodeAt(0), shift: false };
  const other: Record<string, { code: string; vk: number; shift: boolean }> = {
    '-': { code: 'Minus', vk: 189, shift: false },
    '/': { code: 'Slash', vk: 191, shift: false },
    '#': { code: 'Digit3', vk: 51, shift: true },
    '!': { code: 'Digit1', vk: 49, shift: true },
    '.': { code: 'Period', vk: 190, shift: false },
    ' ': { code: 'Space', vk: 32, shift: false },
    _: { code: 'Minus', vk: 189, shift: true },
  };
  return other[ch] ?? { code: '', vk: 0, shift: false };
}

export async function wedgeScanner(page: Page): Promise<WedgeScanner> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  /** The last stamp used, so bursts never overlap or go back in time. */
  let last = 0;
  return {
    async scan(code, gapMs = 5) {
      let at = Math.max(Date.now(), last + 50);
      const send = (params: Record<string, unknown>) =>
        cdp.send('Input.dispatchKeyEvent', { ...params, timestamp: at / 1000 } as never);
      for (const ch of code) {
        const k = keyCodeOf(ch);
        const modifiers = k.shift ? 8 : 0;
        await send({
          type: 'keyDown',
          key: ch,
          code: k.code,
          text: ch,
          unmodifiedText: ch,
          windowsVirtualKeyCode: k.vk,
          modifiers,
        });
        await send({ type: 'keyUp', key: ch, code: k.code, windowsVirtualKeyCode: k.vk, modifiers });
        at += gapMs;
      }
      await send({
        type: 'keyDown',
        key: 'Enter',
        code: 'Enter',
        text: '\r',
        unmodifiedText: '\r',
        windowsVirtualKeyCode: 13,
      });
      await send({ type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
      last = at;
    },
  };
}
