// The contract fuzz (tests/contract/fuzz/contract-fuzz.ts) against a simulated terminal
// of its own: every call of contract/index.ts gets malformed and valid inputs
// built from its fields, and every answer is checked (an envelope, a documented
// code, nothing changed by a refused write, a valid settings write read back).
//
// CI: seed 42 and FUZZ_RUNS random runs per property after the fixed examples.
// Longer, with a new seed (printed, so a failure replays):
//   FUZZ_RUNS=5000 FUZZ_SEED=random node --import tsx --import ./tests/support/register.mjs node_modules/uvu/bin.js tests '^contract/fuzz\.test\.ts$'
// One property again: FUZZ_SEED=<seed> FUZZ_ONLY=<call>:<kind> [FUZZ_PATH=<path>] (printed with each failure).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { startSimulator } from '../../simulator/server.ts';
import { loadModel } from '../../simulator/model.ts';
import { surroundings } from '../../simulator/areas/network.ts';
import { formatFailure, fuzzContract, seedFrom } from './fuzz/contract-fuzz.ts';
import { jsonObject } from './fuzz/wire.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

/**
 * Random runs per property in CI, after its fixed examples: about 57,000 requests, 50 s on the two-core
 * development machine when idle (measured 2026-11-29; the calls and kinds have grown since the first 17 s).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = seedFrom(process.env.FUZZ_SEED);

test('a text repeated on the wire is the JSON of the whole text: escapes, wide characters, surrogates, none', () => {
  for (const [s, n] of [['x', 0], ['x', 3], ['字', 7], ['"\\\n\u0001', 3], ['\ud83d\ude00', 2], ['\ud800', 2], ['\udc00\ud800', 2]] as const) {
    assert.is(jsonObject([['k', { $: 'text', s, n }]]).toString('latin1'), Buffer.from(`{"k":${JSON.stringify(s.repeat(n))}}`).toString('latin1'), `${JSON.stringify(s)} × ${n}`);
  }
});

test('the contract fuzz: every call, malformed and valid inputs from its fields, against a simulated terminal', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-'));
  // A console of one page, so that static paths reach the simulator's file server.
  const site = join(dir, 'site');
  mkdirSync(site);
  const page = gzipSync('<!doctype html><title>console</title>');
  writeFileSync(join(site, 'index.html.gz'), page);
  writeFileSync(join(site, 'manifest.json'), JSON.stringify({ files: [{ path: 'index.html', sha256: createHash('sha256').update(page).digest('hex') }] }));
  const sim = await startSimulator({
    activated: TEST_ADMIN.password,
    storeFile: join(dir, 'store.json'),
    siteDir: site,
    // Fewer seeded records (the searches are not what is measured here); an enrolment ends at once, so no
    // template appears between the reads before and after a refused write.
    model: loadModel('default', { seedRecords: 2000, seedTemperatures: 200, enroll: { ms: 0 } }),
  });
  // The radio answers at once: a Wi-Fi join or a Bluetooth pairing takes 0 ms instead of 1 s.
  Object.assign(surroundings(sim.store), { scanMs: 0, joinMs: 0, searchMs: 0, pairMs: 0 });
  try {
    console.log(`contract fuzz: seed ${SEED}, ${RUNS} random runs per property (FUZZ_SEED, FUZZ_RUNS)`);
    const result = await fuzzContract({
      url: sim.url,
      allowWrites: true,
      simulator: true,
      runs: RUNS,
      seed: SEED,
      only: process.env.FUZZ_ONLY?.split(',').filter(Boolean),
      skip: process.env.FUZZ_SKIP?.split(',').filter(Boolean),
      path: process.env.FUZZ_PATH,
      // FUZZ_VERBOSE=1: each call's time and each failure as it is found.
      log: process.env.FUZZ_VERBOSE ? (l) => console.log(l) : undefined,
    });
    for (const line of result.skipped) console.log(`  not sent: ${line}`);
    for (const f of result.failures) console.log(`\n${formatFailure(f, SEED)}`);
    console.log(`\n${result.properties} properties, ${result.requests} requests, ${(result.ms / 1000).toFixed(1)} s, seed ${SEED}`);
    assert.is(result.failures.length, 0, `${result.failures.length} failing properties (seed ${SEED}): ${result.failures.map((f) => f.id).join(', ')}`);
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
