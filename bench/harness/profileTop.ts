/**
 * The functions that took the most self time in a V8 .cpuprofile (node:inspector, --cpu-prof).
 * Time in a native function or a package (SQLite's statement run, a socket write) is named with
 * the nearest caller in the station's own code (`run (native) in setState electron/queue/...`),
 * since the native name alone says nothing about which step of the station spent it. Lines of an
 * esbuild bundle are named by the source module (esbuild's `// electron/x.ts` markers).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Names each sample by the station code that spent it (see above). */
function sampleNamer(p: Profile): (id: number) => string {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const parent = new Map<number, number>();
  for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const modules = new Map<string, { line: number; name: string }[]>();
  const moduleOf = (url: string, line: number): string | null => {
    if (!modules.has(url)) {
      const file = url.startsWith('file://') ? new URL(url).pathname : url;
      const marks: { line: number; name: string }[] = [];
      if (existsSync(file)) {
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((l, i) => {
            const m = /^\/\/ ((?:electron|shared|bench|test|sandbox|node_modules)\/\S+)$/.exec(l);
            if (m) marks.push({ line: i, name: m[1]! });
          });
      }
      modules.set(url, marks);
    }
    let name: string | null = null;
    for (const m of modules.get(url)!) {
      if (m.line > line) break;
      name = m.name;
    }
    return name;
  };
  const own = (url: string) =>
    !!url && !url.startsWith('node:') && (url.includes('/.cache/') || !url.includes('/node_modules/'));
  const label = (x: ProfileNode) => {
    const f = x.callFrame;
    const mod = own(f.url) ? moduleOf(f.url, f.lineNumber) : null;
    return `${f.functionName || '(anonymous)'} ${mod ?? `${path.basename(f.url)}:${f.lineNumber + 1}`}`;
  };
  const keyOf = (id: number): string => {
    const leaf = byId.get(id)!;
    if (own(leaf.callFrame.url)) return label(leaf);
    for (let up = parent.get(id); up !== undefined; up = parent.get(up)) {
      const x = byId.get(up)!;
      if (own(x.callFrame.url))
        return `${leaf.callFrame.functionName || '(anonymous)'} (${leaf.callFrame.url ? path.basename(leaf.callFrame.url) : 'native'}) in ${label(x)}`;
    }
    return leaf.callFrame.functionName || '(native)';
  };
  return keyOf;
}

/** Waiting, and the profiler's own start (inspector post from coreChild's mark), are not the station's work. */
const notWork = (key: string) => key === '(idle)' || key.includes('bench/harness/');

function rank(self: Map<string, number>, n: number): { fn: string; selfMs: number; share: number }[] {
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([fn, us]) => ({ fn, selfMs: us / 1000, share: us / total }));
}

/** Self time by function, the loop's idle time and the profiler's own start left out; `share` of the rest. */
export function profileTop(file: string, n = 20): { fn: string; selfMs: number; share: number }[] {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const keyOf = sampleNamer(p);
  const self = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const key = keyOf(id);
    if (notWork(key)) return;
    self.set(key, (self.get(key) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
  return rank(self, n);
}

/**
 * The longest stretch without an idle sample (the event loop busy, one block as the loop-delay
 * monitor sees it): its length and what took the time in it.
 */
export function longestBlock(
  file: string,
  n = 8,
): { ms: number; top: { fn: string; selfMs: number; share: number }[] } {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const keyOf = sampleNamer(p);
  const keys = p.samples.map(keyOf);
  let best = { from: 0, to: 0, us: 0 };
  let from = 0;
  let us = 0;
  keys.forEach((key, i) => {
    // A sample's delta is the time since the previous one: it belongs to this sample's stretch.
    if (notWork(key)) {
      from = i + 1;
      us = 0;
      return;
    }
    us += p.timeDeltas[i] ?? 0;
    if (us > best.us) best = { from, to: i, us };
  });
  const self = new Map<string, number>();
  for (let i = best.from; i <= best.to; i++) self.set(keys[i]!, (self.get(keys[i]!) ?? 0) + (p.timeDeltas[i] ?? 0));
  return { ms: best.us / 1000, top: rank(self, n) };
}

/**
 * What ran in a span of the profile's clock (monotonic µs, as coreChild.ts's longest task): the
 * samples taken in it, by function.
 */
export function spanTop(
  file: string,
  span: { fromUs: number; toUs: number },
  n = 10,
): { ms: number; top: { fn: string; selfMs: number; share: number }[] } {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile & { startTime: number };
  const keyOf = sampleNamer(p);
  const self = new Map<string, number>();
  let at = p.startTime;
  p.samples.forEach((id, i) => {
    const d = p.timeDeltas[i] ?? 0;
    at += d;
    if (at < span.fromUs || at > span.toUs + d) return;
    const key = keyOf(id);
    self.set(key, (self.get(key) ?? 0) + d);
  });
  return { ms: (span.toUs - span.fromUs) / 1000, top: rank(self, n) };
}

/** Prints a core profile's top functions and its longest busy stretch to stderr (BENCH_CORE_PROF runs). */
export function showProfile(
  what: string,
  file: string | null,
  longestTask?: { fromUs: number; toUs: number; cpuMs: number } | null,
): void {
  if (!file) return;
  const line = (t: { fn: string; selfMs: number; share: number }) =>
    `    ${t.selfMs.toFixed(0).padStart(7)} ms ${(t.share * 100).toFixed(1).padStart(5)}%  ${t.fn}\n`;
  process.stderr.write(`  core profile (${what}): ${file}\n`);
  for (const t of profileTop(file, 25)) process.stderr.write(line(t));
  const b = longestBlock(file);
  process.stderr.write(`  longest busy stretch: ${b.ms.toFixed(0)} ms\n`);
  for (const t of b.top) process.stderr.write(line(t));
  if (!longestTask) return;
  const task = spanTop(file, longestTask);
  process.stderr.write(
    `  the task with the most CPU (a callback and its promise reactions): ${longestTask.cpuMs.toFixed(1)} ms CPU in ${task.ms.toFixed(1)} ms\n`,
  );
  for (const t of task.top) process.stderr.write(line(t));
}
