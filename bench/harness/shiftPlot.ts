/**
 * The shift benchmark's plot: the core's RSS (MB, left axis) and its event loop's longest stall in
 * each interval (ms, right axis) over the shift's hours, outages shaded. Plain SVG text, the same
 * bytes for the same samples (fixed decimals, no date), so docs/ shows it and a diff shows changes.
 */
export interface ShiftSample {
  /** Hours into the (compressed) shift. */
  hour: number;
  rssMb: number;
  loopMaxMs: number;
  /** The core's own CPU time within its longest stall (the rest: the machine ran something else). */
  loopMaxCpuMs: number;
  labels: number;
  /** The core's background shipment sync ran in the interval (it reported progress). */
  syncing?: boolean;
}

export interface ShiftOutage {
  what: string;
  fromHour: number;
  toHour: number;
}

const W = 760;
const H = 320;
const PAD = { l: 56, r: 56, t: 34, b: 40 };
const f1 = (n: number) => n.toFixed(1);

/** A round step giving about `n` ticks up to `max`. */
function niceStep(max: number, n = 5): number {
  const raw = max / n;
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
}

export function shiftSvg(o: { title: string; hours: number; samples: ShiftSample[]; outages: ShiftOutage[] }): string {
  const pw = W - PAD.l - PAD.r;
  const ph = H - PAD.t - PAD.b;
  const rssTop = niceStep(Math.max(1, ...o.samples.map((s) => s.rssMb))) * 6;
  const loopTop = niceStep(Math.max(1, ...o.samples.map((s) => s.loopMaxMs))) * 6;
  const x = (h: number) => PAD.l + (h / o.hours) * pw;
  const yRss = (v: number) => PAD.t + ph - (v / rssTop) * ph;
  const yLoop = (v: number) => PAD.t + ph - (v / loopTop) * ph;
  const line = (pts: [number, number][]) => pts.map(([a, b], i) => `${i ? 'L' : 'M'}${f1(a)},${f1(b)}`).join(' ');
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${PAD.l}" y="18" font-size="13">${o.title}</text>`,
  ];
  for (const g of o.outages)
    out.push(
      `<rect x="${f1(x(g.fromHour))}" y="${PAD.t}" width="${f1(Math.max(1, x(g.toHour) - x(g.fromHour)))}" height="${ph}" fill="#f4d9a6" opacity="0.6"><title>${g.what}</title></rect>`,
      `<text x="${f1(x(g.fromHour) + 2)}" y="${PAD.t + 12}" fill="#8a5a00">${g.what}</text>`,
    );
  const rssStep = rssTop / 6;
  const loopStep = loopTop / 6;
  for (let i = 0; i <= 6; i++) {
    const y = f1(yRss(i * rssStep));
    out.push(
      `<line x1="${PAD.l}" x2="${W - PAD.r}" y1="${y}" y2="${y}" stroke="#eee"/>`,
      `<text x="${PAD.l - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#1f5fa8">${+(i * rssStep).toFixed(1)}</text>`,
      `<text x="${W - PAD.r + 6}" y="${f1(yLoop(i * loopStep))}" dominant-baseline="middle" fill="#b03030">${+(i * loopStep).toFixed(1)}</text>`,
    );
  }
  for (let h = 0; h <= o.hours; h++)
    out.push(`<text x="${f1(x(h))}" y="${H - PAD.b + 16}" text-anchor="middle">${h} h</text>`);
  out.push(
    `<path d="${line(o.samples.map((s) => [x(s.hour), yLoop(s.loopMaxMs)]))}" fill="none" stroke="#b03030" stroke-width="1"/>`,
    `<path d="${line(o.samples.map((s) => [x(s.hour), yRss(s.rssMb)]))}" fill="none" stroke="#1f5fa8" stroke-width="2"/>`,
    `<text x="${PAD.l}" y="${H - 8}" fill="#1f5fa8">RSS of the core, MB (left)</text>`,
    `<text x="${W - PAD.r}" y="${H - 8}" text-anchor="end" fill="#b03030">longest event-loop stall in each interval, ms (right)</text>`,
    '</svg>',
  );
  return out.join('\n') + '\n';
}

/** Least-squares slope of y over x (NaN with fewer than two points). */
export function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const sxy = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return sxx ? sxy / sxx : NaN;
}
