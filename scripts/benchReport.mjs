// Writes docs/BENCHMARKS.md from bench/results/*.json (and the records the page itself carries): each benchmark's figures of its latest run,
// what it measures (the opening comment of bench/<name>.bench.ts) and the targets it is held to,
// met or missed. `npm run bench` calls it after every run, so the page never carries figures
// written by hand; `npm run bench -- NAME` renews that benchmark and keeps the others' last run.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The targets, by figure name. A figure whose name matches `key` is compared with `value`;
 * a figure no target names is reported as measured.
 * @type {Record<string, { key: RegExp, op: '<=' | '>=' | '<', value: number, says: string }[]>}
 */
const targets = {
  scanToLabel: [
    {
      key: /^(hs|raw)_at0ms_station_added_p50_ms$/,
      op: '<=',
      value: 5,
      says: 'on both printer modes, the station adds at most 5 ms to the floor at p50',
    },
    {
      key: /^(hs|raw)_at50ms_station_vs_floor_p95_ratio$/,
      op: '<=',
      value: 1.1,
      says: 'on both printer modes at 50 ms latency, p95 within 1.1× the floor',
    },
    {
      key: /^(hs|raw)_at\d+ms_core_event_loop_max_block_ms$/,
      op: '<=',
      value: 20,
      says: 'the core never blocks its event loop longer than 20 ms',
    },
  ],
  batchClose: [
    {
      key: /^(hs|raw)_at50ms_floor_vs_station_speedup$/,
      op: '>=',
      value: 20,
      says: 'on both printer modes at 50 ms latency, close all at least 20× faster than one by one',
    },
    {
      key: /^(hs|raw)_at\d+ms_core_cpu_ms_per_shipment$/,
      op: '<=',
      value: 2,
      says: "at most 2 ms of the station process's CPU (with its web host) a shipment",
    },
    {
      key: /^(hs|raw)_at\d+ms_core_event_loop_max_block_ms$/,
      op: '<=',
      value: 20,
      says: 'no event-loop block over 20 ms',
    },
  ],
  syncShipments: [
    {
      key: /^at\d+ms_\w+_core_event_loop_max_block_ms$/,
      op: '<=',
      value: 20,
      says: 'no event-loop block over 20 ms while syncing',
    },
  ],
  scanEvents: [
    {
      key: /^at\d+ms_kb_to_page_total$/,
      op: '<',
      value: 1024,
      says: 'a few hundred KB to the page for the queued scans (under 1 MiB)',
    },
  ],
  silentStop: [
    {
      key: /^named_\w+_max_ms$/,
      op: '<=',
      value: 5000,
      says: 'a printer silent at a stop is named within 5 s',
    },
    {
      key: /^in_printer_again_after_loading_max_ms$/,
      op: '<=',
      value: 5000,
      says: 'the stop is no longer said within 5 s of the printer printing again',
    },
  ],
  printerStream: [
    {
      key: /^(hs|raw)_wall_vs_print_time_plus_first_ratio$/,
      op: '<=',
      value: 1.05,
      says: 'on both printer modes, the printer kept busy: wall time within 1.05× its print time',
    },
    {
      key: /^(hs|raw)_fast_\w+_wall_vs_print_time_plus_first_ratio$/,
      op: '<=',
      value: 1.05,
      says: 'also with a fast printer (40 labels of 250 ms) and labels queued as scans come',
    },
    {
      key: /^(hs|raw)_pair_head_idle_share_of_label$/,
      op: '<',
      value: 0.05,
      says: "the head idles less than 5 % of a label between two scans' labels",
    },
  ],
  // A year at a desk, a shift.
  cameraScan: [
    {
      key: /^(hs|raw)_camera_on_vs_off_p95_ratio$/,
      op: '<=',
      value: 1.1,
      says: 'on both printer modes, the camera on adds nothing beyond noise to scan → label at p95 (within 1.1× of off)',
    },
    {
      key: /^(hs|raw)_camera_on_vs_floor_p95_ratio$/,
      op: '<=',
      value: 1.1,
      says: 'with the camera on, p95 within 1.1× the floor',
    },
  ],
  cameraPage: [
    {
      key: /^(hs|raw)_camera_on_vs_off_p95_ratio$/,
      op: '<=',
      value: 1.1,
      says: "on both printer modes, the page's camera (its grab, encoding and upload included) within 1.1× of off at p95",
    },
  ],
  yearAtDesk: [
    {
      key: /^year(_retention)?_vs_empty_\w+_ratio$/,
      op: '<=',
      value: 1.2,
      says: "a year's database within 1.2× of the empty database's figure",
    },
    { key: /^year_retention_size_mb$/, op: '<=', value: 1024, says: 'with retention, the data folder at most 1 GB' },
    {
      key: /^year_retention_run_vs_empty_scan_p95_ratio$/,
      op: '<=',
      value: 1.2,
      says: "scans while a retention run goes within 1.2× of the empty database's at p95",
    },
  ],
  shiftAtDesk: [
    { key: /^nothing_lost$/, op: '>=', value: 1, says: 'every scan printed exactly once, nothing unfinished' },
    {
      key: /^rss_second_half_slope_mb_per_shift_hour$/,
      op: '<=',
      value: 2,
      says: 'no RSS growth after warm-up (at most 2 MB an hour of the shift)',
    },
    { key: /^event_loop_max_stall_ms$/, op: '<=', value: 20, says: 'no event-loop stall over 20 ms' },
  ],
};

const met = (v, t) => (t.op === '<=' ? v <= t.value : t.op === '>=' ? v >= t.value : v < t.value);
const fmt = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(3));
/** "met", or "missed" with by how much: over a ceiling, or short of a floor, also as a share of the target. */
function verdict(v, t) {
  if (met(v, t)) return 'met';
  if (!Number.isFinite(v)) return '**missed** (no figure)';
  const by = Math.abs(v - t.value);
  const share = t.value !== 0 ? ` (${((by / Math.abs(t.value)) * 100).toFixed(1)} %)` : '';
  return `**missed**: ${t.op === '>=' ? 'short' : 'over'} by ${fmt(by)}${share}`;
}

/**
 * Why a benchmark's targets are met or missed: docs/benchmarks/<name>.md, written by hand after
 * reading a run. Its first line names that run (`<!-- run <ISO time> -->`); a later run of the
 * benchmark keeps the text but says it was written for another run's figures.
 */
function whyOf(root, r) {
  const file = path.join(root, 'docs', 'benchmarks', `${r.name}.md`);
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  const run = /^<!-- run (\S+) -->\n?/.exec(text);
  const body = (run ? text.slice(run[0].length) : text).trim();
  const header = ['', '### Why', ''];
  if (!run || run[1] !== r.at)
    header.push(
      `_Written for ${run ? `the run of ${run[1]}` : 'another run'}, not this one: read it against the figures above._`,
      '',
    );
  return [...header, body];
}

/** Settings that change no figure: BENCH_YEAR_KEEP only leaves the year's folders once it is measured. */
const NEUTRAL_KNOBS = new Set(['BENCH_YEAR_KEEP']);

/** The BENCH_* settings of a record that its benchmark reads (the run's environment holds them all). */
function knobsOf(root, r) {
  const file = path.join(root, 'bench', `${r.name}.bench.ts`);
  const src = existsSync(file) ? readFileSync(file, 'utf8') : '';
  return Object.entries(r.knobs ?? {}).filter(([k]) => !NEUTRAL_KNOBS.has(k) && new RegExp(`\\b${k}\\b`).test(src));
}

/** The first block comment of a benchmark's source, as plain text (what it measures). */
function measures(root, name) {
  const file = path.join(root, 'bench', `${name}.bench.ts`);
  if (!existsSync(file)) return '';
  const m = /\/\*\*([\s\S]*?)\*\//.exec(readFileSync(file, 'utf8'));
  return m
    ? m[1]
        .split('\n')
        .map((l) => l.replace(/^\s*\* ?/, ''))
        .join('\n')
        .trim()
    : '';
}

export function writeBenchmarksPage(root) {
  const dir = path.join(root, 'bench', 'results');
  const out = path.join(root, 'docs', 'BENCHMARKS.md');
  // bench/results/ is not committed, so the page carries each record too: a run of one benchmark
  // in a fresh clone keeps the others' figures. The newest record of each benchmark wins.
  const found = [
    ...(existsSync(out)
      ? [...readFileSync(out, 'utf8').matchAll(/^<!-- record (.*) -->$/gm)].map((m) => JSON.parse(m[1]))
      : []),
    ...(existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')))
      : []),
  ];
  const newest = new Map();
  for (const r of found) if (!newest.has(r.name) || newest.get(r.name).at < r.at) newest.set(r.name, r);
  const records = [...newest.values()].sort((a, b) => a.name.localeCompare(b.name));
  const lines = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run bench` (scripts/benchReport.mjs) from bench/results/*.json: do not edit by hand. -->',
    '',
    'Generated by `npm run bench` from the results of its latest run of each benchmark',
    '(`npm run bench -- NAME` renews one and keeps the others). Figures vary between runs and machines:',
    "a disk sync, the machine's other load and the garbage collector move them; compare runs on one machine.",
    'How the benchmarks are set up: the sandbox and the station core each run in a process of their own, at',
    '0 ms and at 50 ms added to every service request, scans driven over the contract, every floor',
    'measured in the same run (`bench/harness/`); `BENCH_*` variables in each benchmark shrink it for a quick look.',
    '',
    `Generated ${new Date().toISOString()}.`,
    '',
  ];
  if (records.length === 0) lines.push('No results yet: run `npm run bench`.', '');
  else {
    const latest = records.reduce((a, b) => (a.at > b.at ? a : b));
    lines.push(
      `Machine of the latest run: ${latest.cpu ?? 'an unknown CPU'}, ${latest.cpus} cores${latest.memoryGb ? `, ${latest.memoryGb} GB` : ''}${latest.os ? `, ${latest.os}` : ''}, Node ${latest.node}.`,
      '',
    );
    // Which figures one `npm run bench` measured together (a record's `run`: when its invocation
    // began; a smaller run is marked in the table below).
    const runOf = (r) => r.run ?? r.at;
    const perRun = new Map();
    for (const r of records) perRun.set(runOf(r), (perRun.get(runOf(r)) ?? 0) + 1);
    const [mainRun, together] = [...perRun].sort((a, b) => b[1] - a[1])[0];
    const apart = records.filter((r) => runOf(r) !== mainRun).map((r) => `${r.name} ran apart (${r.at})`);
    lines.push(
      together < 2
        ? 'The figures below are from separate runs: each section names its own.'
        : apart.length
          ? `Most figures below are from one run of \`npm run bench\` (begun ${mainRun}): ${together} benchmarks; ${apart.join(', ')}.`
          : `Every figure below is from one run of \`npm run bench\` (begun ${mainRun}): ${together} benchmarks.`,
      '',
    );
    lines.push('| benchmark | run | targets met | targets missed |', '|---|---|---:|---:|');
    for (const r of records) {
      const ts = targets[r.name] ?? [];
      const judged = Object.entries(r.figures).flatMap(([k, v]) =>
        ts
          .filter((t) => t.key.test(k))
          .slice(0, 1)
          .map((t) => met(v, t)),
      );
      lines.push(
        `| [${r.name}](#${r.name.toLowerCase()}) | ${r.at}${knobsOf(root, r).length ? ' (smaller run)' : ''} | ${judged.filter(Boolean).length} | ${judged.filter((x) => !x).length} |`,
      );
    }
    lines.push('');
  }
  for (const r of records) {
    const ts = targets[r.name] ?? [];
    lines.push(
      `## ${r.name}`,
      '',
      `Run ${r.at} on ${r.cpu ?? 'an unknown CPU'} (${r.cpus} cores${r.memoryGb ? `, ${r.memoryGb} GB` : ''}${r.os ? `, ${r.os}` : ''}), Node ${r.node}.`,
      '',
    );
    const knobs = knobsOf(root, r);
    if (knobs.length)
      lines.push(
        `Settings of that run: ${knobs.map(([k, v]) => `\`${k}=${v}\``).join(', ')} (a smaller run than the defaults gives other figures).`,
        '',
      );
    // The command that gives these figures again (with the run's own settings, if it had any).
    lines.push(
      `Reproduce: \`${knobs.map(([k, v]) => `${k}=${v} `).join('')}npm run bench -- ${r.name}\` (on a clean clone, nothing else running).`,
      '',
    );
    const what = measures(root, r.name);
    if (what) lines.push(...what.split('\n').map((l) => `> ${l}`.trimEnd()), '');
    if (ts.length)
      lines.push(
        'Targets: ' +
          ts.map((t) => `${t.says} (\`${t.key.source.replace(/^\^|\$$/g, '')}\` ${t.op} ${t.value})`).join('; ') +
          '.',
        '',
      );
    lines.push('| figure | value | target |', '|---|---:|---|');
    for (const [k, v] of Object.entries(r.figures)) {
      const t = ts.find((x) => x.key.test(k));
      lines.push(`| \`${k}\` | ${fmt(v)} | ${t ? `${t.op} ${t.value}: ${verdict(v, t)}` : ''} |`);
    }
    lines.push(...whyOf(root, r));
    // A plot the benchmark drew (docs/benchmarks/<name>.svg), from the same run as its figures.
    if (existsSync(path.join(root, 'docs', 'benchmarks', `${r.name}.svg`)))
      lines.push('', `![${r.name} over time](benchmarks/${r.name}.svg)`);
    lines.push('', `<!-- record ${JSON.stringify(r).replaceAll('--', '\\u002d\\u002d')} -->`, '');
  }
  writeFileSync(out, lines.join('\n'));
  return out;
}
