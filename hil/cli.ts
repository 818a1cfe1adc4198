// `npm run hil`: put a build on a terminal over its serial console, prove it
// landed, drive it through the browser suites, and report.
//
//   npm run hil -- --serial /dev/ttyUSB0 --baud 115200 --url http://192.168.1.50 --brand anviz
//   npm run hil -- --serial tcp://labhost:4001 --url http://192.168.1.50
//   npm run hil -- --simulate
//   npm run hil -- --inventory terminals.json --shard 1/2
//
// docs/HIL.md has wiring, profiles, inventory files, reports and the image format.
import { resolve } from 'node:path';
import { runTerminal, type TerminalResult, type TerminalTarget } from './harness.ts';
import { parseArgs, readInventory, shardOf, type InventoryEntry } from './cli-args.ts';
import { startSimulatedTerminal, type SimulatedTerminal } from './simulate.ts';

async function main(): Promise<number> {
  const a = parseArgs(process.argv.slice(2));
  const entries: InventoryEntry[] = a.inventory
    ? shardOf(readInventory(a.inventory), a.shard)
    : [{ name: a.name ?? (a.simulate ? 'simulated' : a.serial!.replace(/^.*\//, '')), serial: a.serial, url: a.url, simulate: a.simulate, deviceProfile: a.deviceProfile }];
  if (!entries.length) {
    console.log(`shard ${a.shard?.join('/')} has no terminals`);
    return 0;
  }
  const sims: SimulatedTerminal[] = [];
  try {
    const results: TerminalResult[] = await Promise.all(
      entries.map(async (e) => {
        let serial = e.serial!;
        let url = e.url!;
        if (e.simulate) {
          const sim = await startSimulatedTerminal({ deviceProfile: e.deviceProfile, pty: !a.simulateTcp });
          sims.push(sim);
          serial = a.simulateTcp || !sim.ptyPath ? sim.tcpUrl : sim.ptyPath;
          url = sim.url;
          console.log(`[${e.name}] simulated terminal: web ${url}, serial console ${serial}`);
        }
        const target: TerminalTarget = { name: e.name!, serial, url, baud: e.baud ?? a.baud, brand: e.brand ?? a.brand, profile: e.profile ?? a.profile };
        return runTerminal(target, {
          reportRoot: resolve(a.report),
          rebuild: a.rebuild,
          noSuites: !a.suites,
          playwrightArgs: a.grep ? ['--grep', a.grep] : [],
        });
      }),
    );
    console.log('\nterminal              result   report');
    for (const r of results) console.log(`${r.target.name.padEnd(21)} ${r.ok ? 'passed ' : 'FAILED '}  ${r.reportDir}/report.html`);
    return results.every((r) => r.ok) ? 0 : 1;
  } finally {
    await Promise.all(sims.map((s) => s.close()));
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`hil: ${(err as Error).message}`);
    process.exit(2);
  },
);
