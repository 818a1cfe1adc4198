// What the YMODEM and ZMODEM tests check a transfer by: the files that
// arrived (in order, byte for byte, or on disk), its progress events, the
// faults of a bad line, and the error a transfer that must fail fails with.
// The paced line, the processes and ports on it, and the rates over it are
// the harness's (hil/paced-line.ts), which `npm run bench` measures with too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import type { TransferFile, TransferProgress } from '../../serial/transfer.ts';

/** The files received: their names in order, then each one's length and bytes. */
export function sameFiles(got: TransferFile[], want: TransferFile[]): void {
  assert.equal(got.map((f) => f.name), want.map((f) => f.name));
  for (let i = 0; i < want.length; i++) {
    assert.is(got[i].data.length, want[i].data.length, `length of ${want[i].name}`);
    assert.ok(got[i].data.equals(want[i].data), `content of ${want[i].name}`);
  }
}

/** The same for the files a receiver wrote to `dir`. */
export function sameOnDisk(dir: string, want: TransferFile[]): void {
  for (const f of want) {
    const got = readFileSync(join(dir, f.name));
    assert.is(got.length, f.data.length, `length of ${f.name}`);
    assert.ok(got.equals(f.data), `content of ${f.name}`);
  }
}

/** One error per 10,000 bytes, half of them lost bytes, half corrupted ones. */
export const FAULTS = { dropRate: 0.5e-4, corruptRate: 0.5e-4 };

/** Progress: per file non-decreasing, ending at the file's size. */
export function checkProgress(events: TransferProgress[], want: TransferFile[]): void {
  for (const f of want) {
    const mine = events.filter((e) => e.file === f.name);
    assert.ok(mine.length > 0, `progress for ${f.name}`);
    for (let i = 1; i < mine.length; i++) assert.ok(mine[i].bytes >= mine[i - 1].bytes, 'progress goes forward');
    assert.is(mine[mine.length - 1].bytes, f.data.length);
    assert.is(mine[mine.length - 1].total, f.data.length);
  }
}

/** The error a promise is expected to fail with. */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a failure, got success');
}
