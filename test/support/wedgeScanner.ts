/**
 * A keyboard-wedge barcode scanner, for Playwright tests (a mock of hardware that cannot exist
 * here). A real scanner's keystrokes reach the page stamped with the time the operating system
 * saw them, a few milliseconds apart, however busy the machine is when the page handles them.
 * `page.keyboard.type(code, { delay })` cannot give that: its keys are stamped when they are
 * dispatched, so on a loaded machine a "5 ms" burst arrives with gaps of tens of milliseconds.
 * Here each key goes through the DevTools protocol with its own time stamp (Input.dispatchKeyEvent
 * `timestamp`), `gapMs` apart, which is what the page sees as `event.timeStamp`.
 *
 * A scanner does not wait for the computer to handle one key before it sends the next: its keys
 * are sent here all at once, in order, not each after the previous one's answer (awaited one by
 * one, a loaded test process left the page 100+ ms between a code's first and second key, and the
 * reprint question took the first digit of a scanned code as the worker's answer).
 *
 * `byHand` types as a person does: a key every `gapMs` (150 ms) of real time, stamped when sent,
 * so no burst of it can look like a scanner's however late the page handles it.
 */
import type { CDPSession, Page } from 'playwright-core';

export interface WedgeScanner {
  /** Types `code` then Enter, one key every `gapMs` ms by the keys' time stamps. */
  scan(code: string, gapMs?: number): Promise<void>;
  /** Types `text` at a person's pace ('\n' presses Enter), after a pause as long as the gap. */
  byHand(text: string, gapMs?: number): Promise<void>;
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
  const keyEvents = (ch: string) => {
    if (ch === '\n')
      return [
        { type: 'keyDown', key: 'Enter', code: 'Enter', text: '\r', unmodifiedText: '\r', windowsVirtualKeyCode: 13 },
        { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 },
      ];
    const k = keyCodeOf(ch);
    const modifiers = k.shift ? 8 : 0;
    return [
      { type: 'keyDown', key: ch, code: k.code, text: ch, unmodifiedText: ch, windowsVirtualKeyCode: k.vk, modifiers },
      { type: 'keyUp', key: ch, code: k.code, windowsVirtualKeyCode: k.vk, modifiers },
    ];
  };
  const send = (params: Record<string, unknown>, at: number) =>
    cdp.send('Input.dispatchKeyEvent', { ...params, timestamp: at / 1000 } as never);
  return {
    async scan(code, gapMs = 5) {
      let at = Math.max(Date.now(), last + 50);
      const sent: Promise<unknown>[] = [];
      for (const ch of [...code, '\n']) {
        for (const ev of keyEvents(ch)) sent.push(send(ev, at));
        if (ch !== '\n') at += gapMs;
      }
      await Promise.all(sent);
      last = at;
    },
    async byHand(text, gapMs = 150) {
      for (const ch of text) {
        await new Promise((r) => setTimeout(r, gapMs));
        const at = Math.max(Date.now(), last + gapMs);
        for (const ev of keyEvents(ch)) await send(ev, at);
        last = at;
      }
    },
  };
}
