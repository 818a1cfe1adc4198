// What one terminal's run gives (its target, steps, transfer figures, tests and
// conformance) and the transfer in words: the shapes the harness fills and the
// report and the suites read, in a module of their own so that they import it
// one way (hil/harness.ts runs, hil/report.ts writes, hil/suites.ts tests).
import type { BatchEnd } from '../serial/ymodem-send.ts';
import type { Protocol } from '../serial/transfer.ts';
import type { FileCheck } from './verify.ts';
import type { CallConformance } from './conformance.ts';

export interface TerminalTarget {
  name: string;
  /** Device path or tcp://host:port. */
  serial: string;
  baud: number;
  /** The terminal's web address. */
  url: string;
  brand: string;
  /** Terminal profile name or path. */
  profile: string;
}

export interface Step {
  name: string;
  ok: boolean;
  ms: number;
  detail: string;
}

export interface TestCase {
  /** The spec file (Playwright's classname). */
  file: string;
  title: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped (the test's skip reason), or the failure message. */
  reason: string;
}

export interface TestSummary {
  tests: number;
  failures: number;
  skipped: number;
  failed: string[];
  /** Every test: ran on the device (passed or failed) or skipped, and why. */
  cases: TestCase[];
}

export interface TransferFigures {
  protocol: Protocol;
  bytes: number;
  /** From the receive command to the shell's marker after it: what a flash pays. */
  seconds: number;
  bytesPerSecond: number;
  /** The data alone: from the first data block to the last one acknowledged. */
  dataSeconds: number;
  dataBytesPerSecond: number;
  /** Shares of the line rate (bytes x 10 bits / baud); 0 on a network link, which the baud rate does not pace. */
  lineRatePercent: number;
  dataLineRatePercent: number;
  /**
   * Why the transfer ended once every file was acknowledged: the receiver's
   * last answer (YMODEM's ACK of the closing block, ZMODEM's ZFIN), the
   * shell coming back in its place (a receiver that exited before its last
   * answer reached us), or a timeout (neither came).
   */
  ended: BatchEnd;
}

export interface TerminalResult {
  target: TerminalTarget;
  ok: boolean;
  /** What the run did: flash, or roll back to the previous release. */
  mode: 'flash' | 'rollback';
  steps: Step[];
  image?: { name: string; bytes: number; sha256: string; release: string };
  transfer?: TransferFigures;
  /** Release folders: the one now live, the one before it (rollback target), and those pruned. */
  releases?: { live: string; previous: string; removed: string[] };
  files: FileCheck[];
  tests?: TestSummary;
  conformance: CallConformance[];
  /** Set when a signal stopped the run: the signal and the step it stopped. */
  interrupted?: { signal: string; step: string };
  reportDir: string;
}

/** "data 11.2 kB/s (97.1 % ...); whole transfer 7.1 kB/s in 8.8 s (62.0 % ...)" */
export function transferText(t: TransferFigures, baud: number): string {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB/s`;
  const share = (p: number) => (p && p <= 105 ? ` (${p.toFixed(1)} % of the ${baud} baud line rate)` : '');
  const unpaced = t.lineRatePercent > 105 || t.dataLineRatePercent > 105 ? `; faster than ${baud} baud: this link (a pty or a network) is not paced by the baud rate` : '';
  return `${t.protocol.toUpperCase()}, ${t.bytes} bytes: data blocks ${kb(t.dataBytesPerSecond)}${share(t.dataLineRatePercent)}; whole transfer ${kb(t.bytesPerSecond)} in ${t.seconds.toFixed(1)} s${share(t.lineRatePercent)}, receiver start and end included${unpaced}; ended: ${ENDED[t.ended]}`;
}

const ENDED: Record<BatchEnd, string> = {
  receiver: "the receiver's last answer",
  'shell back': 'the shell came back in place of the last answer',
  timeout: 'no last answer (timeout)',
};
