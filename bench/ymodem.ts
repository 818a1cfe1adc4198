// Section 6: YMODEM throughput over the fault shim paced like a 115200 baud
// line, with the real lrzsz rb and with our own receiver: the harness's paced
// line (hil/paced-line.ts), which the HIL tests measure with too, one run each.
import { BAUD, THROUGHPUT_PAYLOAD, guarded, lineRate, rateToOurs, rateToRb, type Rate } from '../hil/paced-line.ts';
import { round, target, type Settings, type Target } from './lib.ts';

/** The HIL tests' bar (tests/hil/ymodem.test.ts), on the span each of them judges. */
const REFERENCE = 90;

interface Span {
  ms: number;
  bytesPerSecond: number;
  /** Of the line rate (BAUD / 10 bytes a second). */
  percent: number;
  /** The same without the line time the shim lost to late timers on a busy machine. */
  percentWithoutLate: number;
}

export interface YmodemPath {
  path: string;
  bytes: number;
  /** Block 0 acknowledged to the last data block acknowledged. */
  data: Span;
  /** The start of the send to the end of the batch. */
  batch: Span;
  lateMs: number;
  /** Which span the HIL test judges, and (with the test's payload) whether it reaches the bar. */
  judged: 'data' | 'batch';
  result?: Target;
}

export interface YmodemSection {
  baud: number;
  lineBytesPerSecond: number;
  paths: YmodemPath[];
}

function span(bytes: number, ms: number, lateMs: number): Span {
  const r = lineRate(bytes, ms, lateMs);
  return { ms: round(ms), bytesPerSecond: Math.round((bytes * 1000) / ms), percent: round(r.raw), percentWithoutLate: round(r.fair) };
}

function path(name: string, r: Rate, judged: 'data' | 'batch'): YmodemPath {
  const data = span(r.bytes, r.dataMs, r.lateMs);
  const batch = span(r.bytes, r.allMs, r.lateMs);
  const j = judged === 'data' ? data : batch;
  const p: YmodemPath = { path: name, bytes: r.bytes, data, batch, lateMs: round(r.lateMs), judged };
  // The bar is for the test's payload: with a smaller one the fixed costs (block 0, the end of the batch) weigh more.
  if (r.bytes === THROUGHPUT_PAYLOAD) p.result = target(`>= ${REFERENCE} % of line rate (${judged === 'data' ? 'data blocks' : 'whole batch'}; on a quiet machine: npm test's YMODEM bar is 40 %, for a busy one)`, Math.max(j.percent, j.percentWithoutLate) >= REFERENCE);
  return p;
}

export async function measureYmodem(s: Settings): Promise<YmodemSection> {
  const payload = s.short ? 16 * 1024 : THROUGHPUT_PAYLOAD;
  const paths: YmodemPath[] = [];
  // As in the tests: rb has its own 1 s timers around EOT and the end of the batch, so its data blocks are judged.
  s.log(`YMODEM: our sender -> lrzsz rb, ${payload} bytes at ${BAUD} baud`);
  await guarded(120_000, async (scope) => void paths.push(path('our sender -> lrzsz rb', await rateToRb(scope, 70, payload), 'data')))();
  s.log(`YMODEM: our sender -> our receiver, ${payload} bytes at ${BAUD} baud`);
  await guarded(120_000, async (scope) => void paths.push(path('our sender -> our receiver', await rateToOurs(scope, 80, payload), 'batch')))();
  return { baud: BAUD, lineBytesPerSecond: BAUD / 10, paths };
}
