/**
 * A keyboard-wedge barcode scanner, for Playwright tests (a mock of hardware that cannot exist
 * here). A real scanner's keystrokes reach the page stamped with the time the operating system
 * saw them, a few milliseconds apart, however busy the machine is when the page handles them.
 * `page.keyboard.type(code, { delay })` cannot give that: its keys are stamped when they are
 * dispatched, so on a loaded machine a "5 ms" burst arrives with gaps of tens of milliseconds.
 * Here each key goes through the DevTools protocol with its own time stamp (Input.dispatchKeyEvent
 * `timestamp`), `gapMs` apart, which is what the page sees as `event.timeStamp`.
 *
 * What the scanner does, from the vendors' manuals:
 * - It does not wait for the computer to handle one key before it sends the next; the only pacing
 *   is a fixed delay it may be set to add. Hand Held Products (Honeywell) 2020/4820 User's Guide
 *   (https://manualarchiveguide.com/manuals/Hand-Held-Products-2020-User-Manual-3389521?page=95), "Intercharacter,
 *   Interfunction, and Intermessage Delays": "Some terminals drop information (characters) if data
 *   comes through too quickly. Intercharacter, interfunction, and intermessage delays slow the
 *   transmission of data", "An intercharacter delay of up to 495 milliseconds may be placed
 *   between the transmission of each character of scanned data" (its figure puts it between the
 *   prefix, the data and the suffix, the Enter here); Datalogic Gryphon 2D Product Reference Guide
 *   (https://manualarchiveguide.com/manuals/Datalogic-Gryphon-2D-Series-Product-Reference-Manual-3001872?page=293;
 *   the PowerScan guides say the same), Keyboard Interface, "Intercharacter Delay": "This parameter specifies the
 *   intercharacter delay between the end of one character and the beginning of the next. The
 *   delay can be set within a range of zero (0) to 990 milliseconds in 10ms increments. A setting
 *   of zero specifies no delay." So the keys are sent here all at once, in order, stamped `gapMs`
 *   apart, not each after the previous one's answer (awaited one by one, a loaded test process
 *   left the page 100+ ms between a code's first and second key, and the reprint question took the
 *   first digit of a scanned code as the worker's answer). A desk whose scanner is set to a delay
 *   longer than Settings → Scanner's key gap is a setting to change there, not a case here.
 * - Over USB HID each character is two reports: Microscan MS-4 User Manual
 *   (http://microscan.manymanuals.com/bar-code-readers/ms-4/user-manual-31069/72), "USB HID Interface,
 *   Keyboard Report Format": "Keyboard Reports protocol requires that two reports be sent for every
 *   keystroke. The first report indicates which key is pressed. The second report indicates 'no
 *   key pressed'", and Shift is a bit of the report's MODIFIER byte, "the state of the modifier
 *   keys at the time the keycode field was generated". So a key's keyup comes one report (half a
 *   gap) after its keydown, and a capital is pressed with Shift, which the operating system turns
 *   into Shift's own keydown before the key and keyup with the release report.
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
  const SHIFT = { key: 'Shift', code: 'ShiftLeft', windowsVirtualKeyCode: 16, location: 1 };
  type KeyEvent = Record<string, unknown>;
  /** A character's "key pressed" report (Shift first for a capital) and its "no key pressed" report. */
  const keyEvents = (ch: string): { pressed: KeyEvent[]; released: KeyEvent[] } => {
    if (ch === '\n')
      return {
        pressed: [
          { type: 'keyDown', key: 'Enter', code: 'Enter', text: '\r', unmodifiedText: '\r', windowsVirtualKeyCode: 13 },
        ],
        released: [{ type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 }],
      };
    const k = keyCodeOf(ch);
    const modifiers = k.shift ? 8 : 0;
    const down = {
      type: 'keyDown',
      key: ch,
      code: k.code,
      text: ch,
      unmodifiedText: ch,
      windowsVirtualKeyCode: k.vk,
      modifiers,
    };
    const up = { type: 'keyUp', key: ch, code: k.code, windowsVirtualKeyCode: k.vk, modifiers };
    return k.shift
      ? {
          pressed: [{ type: 'rawKeyDown', ...SHIFT, modifiers: 8 }, down],
          released: [up, { type: 'keyUp', ...SHIFT, modifiers: 0 }],
        }
      : { pressed: [down], released: [up] };
  };
  const send = (params: KeyEvent, at: number) =>
    cdp.send('Input.dispatchKeyEvent', { ...params, timestamp: at / 1000 } as never);
  return {
    async scan(code, gapMs = 5) {
      let at = Math.max(Date.now(), last + 50);
      const sent: Promise<unknown>[] = [];
      for (const ch of [...code, '\n']) {
        const { pressed, released } = keyEvents(ch);
        for (const ev of pressed) sent.push(send(ev, at));
        for (const ev of released) sent.push(send(ev, at + gapMs / 2));
        if (ch !== '\n') at += gapMs;
      }
      await Promise.all(sent);
      last = at + gapMs / 2;
    },
    async byHand(text, gapMs = 150) {
      for (const ch of text) {
        await new Promise((r) => setTimeout(r, gapMs));
        const at = Math.max(Date.now(), last + gapMs);
        const { pressed, released } = keyEvents(ch);
        for (const ev of [...pressed, ...released]) await send(ev, at);
        last = at;
      }
    },
  };
}
