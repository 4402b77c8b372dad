/**
 * A small seeded pseudo-random source (mulberry32) whose whole state is one 32-bit integer, so a game log
 * can store it and replay every roll. Rules never call Math.random; they take an `Rng`.
 */

/** Serialisable generator state: store it in a game log, restore it with `restoreRng`. */
export interface RngState {
  readonly algorithm: 'mulberry32';
  /** Internal 32-bit state, unsigned. */
  readonly state: number;
}

export interface Rng {
  /** Next unsigned 32-bit integer. */
  nextUint32(): number;
  /** Uniform float in [0, 1). */
  nextFloat(): number;
  /** Uniform integer in [0, maxExclusive), without modulo bias. */
  nextInt(maxExclusive: number): number;
  /** The current state; `restoreRng(rng.snapshot())` continues the same sequence. */
  snapshot(): RngState;
}

/**
 * Hashes a text seed to a 32-bit integer (FNV-1a), so seeds can be words like a game name.
 * @example createRng(seedFromString('gettysburg-day-2'))
 */
export function seedFromString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Creates a generator from a numeric seed (any finite number; it is folded to 32 bits).
 * @example const rng = createRng(42); rng.nextInt(6) // 0..5
 */
export function createRng(seed: number): Rng {
  if (!Number.isFinite(seed)) throw new Error(`createRng: seed must be a finite number, got ${seed}`);
  return restoreRng({ algorithm: 'mulberry32', state: Math.trunc(seed) >>> 0 });
}

/** Recreates a generator from a snapshot taken with `rng.snapshot()`. */
export function restoreRng(snapshot: RngState): Rng {
  if (snapshot.algorithm !== 'mulberry32') {
    throw new Error(`restoreRng: unknown algorithm '${String(snapshot.algorithm)}' (expected 'mulberry32')`);
  }
  let a = snapshot.state >>> 0;
  const nextUint32 = (): number => {
    // mulberry32 (Tommy Ettinger): a Weyl sequence step followed by an xorshift-multiply mix.
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return {
    nextUint32,
    nextFloat: () => nextUint32() / 4294967296,
    nextInt(maxExclusive: number): number {
      if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > 4294967296) {
        throw new Error(`nextInt: maxExclusive must be an integer in 1..2^32, got ${maxExclusive}`);
      }
      // Rejection sampling: drop the top partial block so every value is equally likely.
      const limit = 4294967296 - (4294967296 % maxExclusive);
      for (;;) {
        const x = nextUint32();
        if (x < limit) return x % maxExclusive;
      }
    },
    snapshot: () => ({ algorithm: 'mulberry32', state: a }),
  };
}
