// mulberry32: a small seeded generator, [0, 1). The same seed gives the same
// sequence: fresh simulator stores, the fault shim's faults and the board's
// power cuts are replayable from their seed.
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
