// The shape of results.json: what bench/run.ts measures and bench/report.ts
// (and tests/bench/bench.test.ts) read. Its own module, so that both import it one way.
import type { BytesSection } from './sizes.ts';
import type { LoginSection, SignInSection } from './login.ts';
import type { LineSection } from './line.ts';
import type { HeapSection } from './heap.ts';
import type { RenderSection } from './render.ts';
import type { YmodemSection } from './ymodem.ts';
import type { RecordsSection } from './records.ts';
import type { SimulatorSection } from './simulator.ts';

type Measured<T> = T | { error: string };

export interface Results {
  date: string;
  machine: { cpus: number; model: string; node: string; chromium: string; platform: string };
  short: boolean;
  /** Wall time of the whole run, s. */
  seconds: number;
  sections: {
    bytes?: Measured<BytesSection>;
    line?: Measured<LineSection>;
    coldLogin?: Measured<LoginSection>;
    signIn?: Measured<SignInSection>;
    heap?: Measured<HeapSection>;
    render?: Measured<RenderSection>;
    ymodem?: Measured<YmodemSection>;
    records?: Measured<RecordsSection>;
    simulator?: Measured<SimulatorSection>;
  };
  /** Targets missed, in words. */
  missed: string[];
  /** Sections that could not be measured. */
  failed: string[];
}
