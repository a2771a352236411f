// The platform and CPU a native binary (a `.node` module, an `.exe`) was built for, read from its
// header: ELF (Linux), Mach-O and fat Mach-O (macOS), PE (Windows). Used by the packaging step
// (scripts/native-electron.mjs refuses a binary for another target) and by the packaging test,
// which checks every `.node` file a platform's package would carry. Names are Node's
// (process.platform / process.arch), so they compare with what electron-builder is asked for.
// Small enough to keep here: only the magic numbers and the machine field are read.

const ELF_MACHINES = { 0x03: 'ia32', 0x28: 'arm', 0x3e: 'x64', 0xb7: 'arm64' };
const MACHO_CPUS = { 0x01000007: 'x64', 0x0100000c: 'arm64', 0x00000007: 'ia32', 0x0000000c: 'arm' };
const PE_MACHINES = { 0x014c: 'ia32', 0x8664: 'x64', 0xaa64: 'arm64', 0x01c4: 'arm' };

/**
 * @param {Buffer} b the file's first bytes (4 KB is plenty)
 * @returns {{ platform: 'linux' | 'darwin' | 'win32', arch: string, arches?: string[] } | null}
 *   null when the bytes are no native binary this knows; a fat Mach-O gives arch 'universal'
 *   and the CPUs it holds in `arches`.
 */
export function binaryTarget(b) {
  if (b.length >= 20 && b[0] === 0x7f && b[1] === 0x45 && b[2] === 0x4c && b[3] === 0x46) {
    const machine = b[5] === 2 ? b.readUInt16BE(18) : b.readUInt16LE(18);
    return { platform: 'linux', arch: ELF_MACHINES[machine] ?? `elf-machine-${machine}` };
  }
  if (b.length >= 8) {
    const le = b.readUInt32LE(0);
    if (le === 0xfeedfacf || le === 0xfeedface) {
      const cpu = b.readUInt32LE(4);
      return { platform: 'darwin', arch: MACHO_CPUS[cpu] ?? `macho-cpu-${cpu}` };
    }
    if (b.readUInt32BE(0) === 0xcafebabe) {
      const count = b.readUInt32BE(4);
      // Java class files share the magic; a fat Mach-O holds a handful of architectures.
      if (count > 0 && count < 20 && b.length >= 8 + count * 20) {
        const arches = [];
        for (let i = 0; i < count; i++) {
          const cpu = b.readUInt32BE(8 + i * 20);
          arches.push(MACHO_CPUS[cpu] ?? `macho-cpu-${cpu}`);
        }
        return { platform: 'darwin', arch: 'universal', arches };
      }
    }
  }
  if (b.length >= 0x40 && b[0] === 0x4d && b[1] === 0x5a) {
    const pe = b.readUInt32LE(0x3c);
    if (pe + 6 <= b.length && b.readUInt32BE(pe) === 0x50450000) {
      const machine = b.readUInt16LE(pe + 4);
      return { platform: 'win32', arch: PE_MACHINES[machine] ?? `pe-machine-${machine}` };
    }
  }
  return null;
}

/** Whether a binary's target serves `platform`/`arch` (a fat Mach-O serves each CPU it holds). */
export function servesTarget(target, platform, arch) {
  if (!target || target.platform !== platform) return false;
  return target.arch === arch || (target.arch === 'universal' && (target.arches ?? []).includes(arch));
}
