// A simulated terminal for the harness: the HTTP side serving <sandbox>/www
// and the serial console on a pty (through socat) and a TCP port.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../simulator/server.ts';
import { loadModel } from '../simulator/model.ts';
import { startConsole } from '../simulator/console.ts';
import { prepareSandbox, siteDirOf } from '../simulator/shell/sandbox.ts';
import { SIMULATED_PASSWORD } from '../simulator/activation.ts';

export interface SimulatedTerminal {
  url: string;
  ptyPath?: string;
  tcpUrl: string;
  sandbox: string;
  close(): Promise<void>;
}

export async function startSimulatedTerminal(opts: { deviceProfile?: string; pty?: boolean; sandbox?: string } = {}): Promise<SimulatedTerminal> {
  const sandbox = opts.sandbox ?? mkdtempSync(join(tmpdir(), 'sim-terminal-'));
  prepareSandbox(sandbox);
  // The web side serves the release /www points at; a restart re-resolves it.
  const sim = await startSimulator({
    activated: SIMULATED_PASSWORD,
    siteDir: siteDirOf(sandbox),
    storeFile: join(sandbox, '..', `${sandbox.split('/').pop()}-store.json`),
    // A bench terminal runs unattended: no one presents a face or finger, so an enrolment times out (after 10 s here).
    model: loadModel(opts.deviceProfile ?? 'default', { enroll: { outcome: 'timeout', timeoutMs: 10_000 } }),
  });
  const console = await startConsole({
    root: sandbox,
    hostname: 'terminal',
    pty: opts.pty ?? true,
    onRestartHttp: (dir: string) => sim.setSite(dir),
  });
  return {
    url: sim.url,
    ptyPath: console.ptyPath,
    tcpUrl: console.tcpUrl,
    sandbox,
    async close() {
      await console.close();
      await sim.close();
    },
  };
}
