// What build steps keep by the hash of their inputs (build/kept.ts): keys that no two lists of
// inputs share, whole files or none, and only the newest kept where a step prunes.
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keep, keyOf, prune, readKept } from '../../build/kept.ts';

test('a key tells apart inputs that the same bytes split differently', () => {
  assert.is.not(keyOf(['ab', 'c']), keyOf(['a', 'bc']));
  assert.is.not(keyOf(['abc']), keyOf(['ab', 'c']));
  assert.is(keyOf(['a', Buffer.from('b')]), keyOf(['a', 'b']), 'a string and its UTF-8 bytes are the same input');
  assert.match(keyOf([]), /^[0-9a-f]{64}$/);
});

test('kept bytes are read back whole; a missing file is none', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kept-'));
  try {
    assert.is(readKept(join(dir, 'x')), undefined);
    keep(join(dir, 'x'), Buffer.from('made'));
    assert.is(readKept(join(dir, 'x'))?.toString(), 'made');
    assert.equal(readdirSync(dir), ['x'], 'nothing left aside');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('pruning leaves the newest files by time written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kept-'));
  try {
    ['a', 'b', 'c', 'd'].forEach((name, i) => {
      writeFileSync(join(dir, name), name);
      utimesSync(join(dir, name), 1000 + i, [1000, 4000, 2000, 3000][i]); // written in the order a, c, d, b
    });
    prune(dir, 2);
    assert.equal(readdirSync(dir).sort(), ['b', 'd']);
    prune(dir, 2);
    assert.equal(readdirSync(dir).sort(), ['b', 'd'], 'no more than there were');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
