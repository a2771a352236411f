#!/usr/bin/env node
// The SumatraPDF the Windows package carries (pdf-to-printer prints PDFs through it). pdf-to-printer
// bundles SumatraPDF 3.4.6 (CVE-2023-33802); electron-builder.yml leaves that copy out of every
// package, and the Windows package carries this pinned current release instead, at
// resources/sumatra/SumatraPDF.exe, which the station hands to pdf-to-printer as `sumatraPdfPath`.
//
// Fetched from SumatraPDF's own download server into build/sumatra/ and accepted only when the
// archive and the program in it have the SHA-256 pinned here (the official portable 64-bit build,
// the hashes cross-checked with other projects that pin the same release). Run by electron-builder's
// beforePack hook for a Windows target (scripts/packHooks.mjs), or by hand:
// `node scripts/fetch-sumatra.mjs`. It needs internet access; without it, or when a hash differs,
// it fails and the Windows package is not made.
// To move to a newer release: change VERSION and both hashes, from the release's own files.
// SumatraPDF is GPLv3: resources/licenses/ holds the licence and the written source offer that the
// Windows package carries beside it (resources/licenses in the installed app).
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import extract from 'extract-zip';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SUMATRA = {
  version: '3.6.1',
  /** The Windows CPUs a pinned build serves (an arm64 or ia32 package needs its own build pinned here). */
  arches: ['x64'],
  url: 'https://www.sumatrapdfreader.org/dl/rel/3.6.1/SumatraPDF-3.6.1-64.zip',
  zipSha256: '98b33a518d42986856d225064b0cd2d3643ecf78cbf84ab873d26cc51877a544',
  exeSha256: '719f689b34f47be8ca105ce8484948474dafde0e106bab599e4a89326070c3d0',
};
const sumatraFile = path.join(root, 'build', 'sumatra', 'SumatraPDF.exe');

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** build/sumatra/SumatraPDF.exe, the pinned release, fetched when missing or different. */
export async function ensureSumatra(ebArch = 'x64') {
  if (!SUMATRA.arches.includes(ebArch)) {
    throw new Error(
      `No SumatraPDF is pinned for Windows ${ebArch} (scripts/fetch-sumatra.mjs serves ${SUMATRA.arches.join(', ')}); the package is not made.`,
    );
  }
  if (existsSync(sumatraFile) && sha256(readFileSync(sumatraFile)) === SUMATRA.exeSha256) return sumatraFile;
  console.log(`Fetching SumatraPDF ${SUMATRA.version} from ${SUMATRA.url} ...`);
  const res = await fetch(SUMATRA.url);
  if (!res.ok)
    throw new Error(`SumatraPDF ${SUMATRA.version} could not be fetched: HTTP ${res.status} from ${SUMATRA.url}.`);
  const zip = Buffer.from(await res.arrayBuffer());
  if (sha256(zip) !== SUMATRA.zipSha256)
    throw new Error(
      `The SumatraPDF archive from ${SUMATRA.url} has SHA-256 ${sha256(zip)}, not the pinned ${SUMATRA.zipSha256}; not used.`,
    );
  const work = mkdtempSync(path.join(os.tmpdir(), 'sumatra-'));
  try {
    writeFileSync(path.join(work, 'sumatra.zip'), zip);
    await extract(path.join(work, 'sumatra.zip'), { dir: path.join(work, 'x') });
    const exe = readdirSync(path.join(work, 'x')).find((n) => /^SumatraPDF.*\.exe$/i.test(n));
    if (!exe || sha256(readFileSync(path.join(work, 'x', exe))) !== SUMATRA.exeSha256) {
      throw new Error(
        `The SumatraPDF archive holds no program with the pinned SHA-256 ${SUMATRA.exeSha256}; not used.`,
      );
    }
    mkdirSync(path.dirname(sumatraFile), { recursive: true });
    renameSync(path.join(work, 'x', exe), sumatraFile);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`SumatraPDF ${SUMATRA.version} is in ${path.relative(root, sumatraFile)}.`);
  return sumatraFile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await ensureSumatra();
