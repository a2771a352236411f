/**
 * A seeded random source for the fuzz suites, so a failing run replays from its printed seed
 * (SANDBOX_FUZZ_SEED=<n>).
 */

/** mulberry32: a small seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The run's seed: SANDBOX_FUZZ_SEED when set, else a fresh one. */
export function fuzzSeed(): number {
  return Number(process.env.SANDBOX_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
}

export interface Random {
  rnd: () => number;
  /** 0 <= n < max. */
  int(max: number): number;
  pick<T>(list: readonly T[]): T;
  chance(p: number): boolean;
}

export function seededRandom(seed: number): Random {
  const rnd = prng(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  return { rnd, int, pick: (list) => list[int(list.length)]!, chance: (p) => rnd() < p };
}
