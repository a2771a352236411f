/**
 * The page's copy of a list the core keeps (renderer/src/state/followList.ts):
 * loaded whole once, then kept by changes; a lost change or a reconnect loads it whole again, and
 * changes that arrive while it loads are not lost. The "core" here is a plain list with versions.
 */
import { describe, expect, it } from 'vitest';
import { createListChangeFeed } from '../../../electron/status/pageFeeds';
import { followList, type ListChange } from '../../../renderer/src/state/followList';

type Scan = { scanId: number; code: string };

/** A core's list and the changes it would send. */
function core(start: Scan[]) {
  let list = [...start];
  let version = 0;
  return {
    list: () => ({ version, list: [...list] }),
    change(put: Scan[], remove: number[]): ListChange<Scan, number> {
      list = list.filter((s) => !remove.includes(s.scanId));
      for (const p of put) {
        const i = list.findIndex((s) => s.scanId === p.scanId);
        if (i >= 0) list[i] = p;
        else list.push(p);
      }
      return { version: ++version, put, remove };
    },
  };
}

function page(c: ReturnType<typeof core>, gate?: () => Promise<void>) {
  let shown: Scan[] = [];
  let loads = 0;
  let reconnect = () => {};
  const f = followList<Scan, number>({
    load: async () => {
      loads++;
      const l = c.list();
      await gate?.();
      return l;
    },
    key: (s) => s.scanId,
    publish: (l) => (shown = l),
    onReconnect: (cb) => (reconnect = cb),
  });
  return { f, shown: () => shown, loads: () => loads, reconnect: () => reconnect() };
}

describe('a list the page follows', () => {
  it('applies changes in order: new, changed in place, gone', async () => {
    const c = core([{ scanId: 1, code: 'ŠTÍTEK-1' }]);
    const p = page(c);
    await p.f.reload();
    p.f.apply(c.change([{ scanId: 2, code: 'ŠTÍTEK-2' }], []));
    p.f.apply(c.change([{ scanId: 1, code: 'ŠTÍTEK-1 čeká' }], []));
    p.f.apply(c.change([], [2]));
    expect(p.shown()).toEqual([{ scanId: 1, code: 'ŠTÍTEK-1 čeká' }]);
    expect(p.loads()).toBe(1);
  });

  it('a lost change makes it load the whole list again, and then it is right', async () => {
    const c = core([]);
    const p = page(c);
    await p.f.reload();
    p.f.apply(c.change([{ scanId: 1, code: 'A' }], []));
    c.change([{ scanId: 2, code: 'B' }], []); // lost with the connection
    p.f.apply(c.change([{ scanId: 3, code: 'C' }], []));
    await new Promise((r) => setTimeout(r, 0));
    expect(p.loads()).toBe(2);
    expect(p.shown().map((s) => s.code)).toEqual(['A', 'B', 'C']);
  });

  it('changes that arrive while the list loads are applied after it; older ones are dropped', async () => {
    const c = core([{ scanId: 1, code: 'A' }]);
    let open!: () => void;
    const p = page(c, () => new Promise<void>((r) => (open = r)));
    const old = c.change([{ scanId: 2, code: 'B' }], []); // before the list was read: in it already
    const loading = p.f.reload();
    p.f.apply(old);
    p.f.apply(c.change([], [1])); // after the list was read
    open();
    await loading;
    expect(p.shown().map((s) => s.code)).toEqual(['B']);
    expect(p.loads()).toBe(1);
  });

  it('loads the whole list again after a reconnect', async () => {
    const c = core([]);
    const p = page(c);
    await p.f.reload();
    c.change([{ scanId: 1, code: 'Ř-1' }], []); // sent while the page was away
    p.reconnect();
    await new Promise((r) => setTimeout(r, 0));
    expect(p.shown().map((s) => s.code)).toEqual(['Ř-1']);
  });
});

describe('gathered changes (electron/status/pageFeeds.ts)', () => {
  it('many changes made one per window leave the page where the core is, also a page that loaded in between', async () => {
    const c = core([]);
    const frames: ListChange<Scan, number>[] = [];
    const feed = createListChangeFeed<Scan, number>({
      key: (s) => s.scanId,
      send: (f) => frames.push(f),
      windowMs: 20,
    });
    const early = page(c);
    await early.f.reload();
    const sent: ListChange<Scan, number>[] = [];
    const step = (put: Scan[], remove: number[]) => {
      const ch = c.change(put, remove);
      sent.push(ch);
      feed.change(ch);
    };
    // 60 scans come into line, each starts working and leaves it, one after another.
    for (let i = 1; i <= 60; i++) step([{ scanId: i, code: `ČEKÁ-${i}` }], []);
    const late = page(c);
    for (let i = 1; i <= 40; i++) {
      step([{ scanId: i, code: `PRACUJE-${i}` }], []);
      step([], [i]);
      if (i === 20) await late.f.reload(); // loads the list while the changes are still coming
    }
    step([{ scanId: 61, code: 'ŽLUŤOUČKÝ-61' }], []);
    await new Promise((r) => setTimeout(r, 60));
    for (const f of frames) {
      early.f.apply(f);
      late.f.apply(f);
    }
    const whole = c.list().list;
    expect(whole.map((s) => s.code)).toEqual([
      ...Array.from({ length: 20 }, (_, i) => `ČEKÁ-${41 + i}`),
      'ŽLUŤOUČKÝ-61',
    ]);
    expect(early.shown()).toEqual(whole);
    expect(late.shown()).toEqual(whole);
    expect(early.loads() + late.loads()).toBe(2); // no change was missing: neither loaded again
    // Fewer frames than changes, and each scan at most once per frame.
    expect(frames.length).toBeLessThan(sent.length);
    for (const f of frames) expect(new Set(f.put.map((s) => s.scanId)).size).toBe(f.put.length);
    feed.stop();
  });
});
