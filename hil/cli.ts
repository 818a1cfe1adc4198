// `npm run hil`: put a build on a terminal over its serial console, prove it
// landed, drive it through the browser suites, and report.
//
//   npm run hil -- --serial /dev/ttyUSB0 --baud 115200 --url http://192.168.1.50 --brand anviz
//   npm run hil -- --serial tcp://labhost:4001 --url http://192.168.1.50
//   npm run hil -- --simulate
//   npm run hil -- --board [--fresh] [--protocol ymodem]
//   npm run hil -- --inventory terminals.json --shard 1/2
//   npm run hil -- --inventory terminals.json --shard 1/2 --split-suites
//   npm run hil -- --serial /dev/ttyUSB0 --url http://192.168.1.50 --rollback
//
// Ctrl-C or SIGTERM stops the run: the transfer under way is cancelled, the
// console left at its prompt, each report written with the step that was
// interrupted; the exit status is 130 (SIGINT) or 143 (SIGTERM). A second
// signal exits at once.
//
// docs/HIL.md has wiring, profiles, inventory files, reports and the image format.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { rollbackTerminal, runTerminal } from './harness.ts';
import type { TerminalResult, TerminalTarget } from './result.ts';
import { parseArgs, readInventory, shardOf, type InventoryEntry } from './cli-args.ts';
import { startSimulatedTerminal } from './simulate.ts';
import { SIMULATED_PASSWORD } from '../simulator/activation.ts';
import { startBoardTerminal } from '../board/start.ts';
import { CACHE } from '../board/packages.ts';

const SIGNAL_STATUS: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

async function main(): Promise<number> {
  const a = parseArgs(process.argv.slice(2));
  const stop = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (stop.signal.aborted) process.exit(SIGNAL_STATUS[sig]);
      console.error(`\nhil: ${sig}: cancelling the transfer and writing the reports (again to quit at once)`);
      stop.abort(sig);
    });
  }
  const all: InventoryEntry[] = a.inventory
    ? readInventory(a.inventory)
    : [{ name: a.name ?? (a.simulate ? 'simulated' : a.board ? 'board' : a.serial!.replace(/^.*\//, '')), serial: a.serial, url: a.url, simulate: a.simulate, board: a.board, deviceProfile: a.model }];
  // Each terminal keeps its place in the whole inventory: with --split-suites, terminal k of N runs Playwright's shard k/N.
  const entries = shardOf(all.map((e, i) => ({ ...e, place: i + 1 })), a.shard);
  if (!entries.length) {
    console.log(`shard ${a.shard?.join('/')} has no terminals`);
    return 0;
  }
  // The simulated terminals and boards this run started, stopped at its end.
  const sims: { close(): Promise<void> }[] = [];
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
        const brand = e.brand ?? a.brand;
        // A board in an inventory has the board's console profile unless it names one; --board set a.consoleProfile already.
        const profile = e.profile ?? (e.board && a.inventory ? 'board' : a.consoleProfile);
        if (e.board) {
          // Its /data is kept between runs, like a terminal's disk (--fresh: the factory state); the API's store is new each run, activated as the suites expect.
          const safe = e.name!.replace(/[^\w.-]/g, '_');
          const store = mkdtempSync(join(tmpdir(), 'hil-board-'));
          const t = await startBoardTerminal({
            brand,
            profile,
            disk: join(CACHE, `hil-${brand}-${safe}.img`),
            storeFile: join(store, 'store.json'),
            fresh: a.fresh,
            activated: SIMULATED_PASSWORD,
            deviceProfile: e.deviceProfile,
            unattended: true,
            log: (l) => console.log(`[${e.name}] ${l}`),
          });
          sims.push({ close: () => t.close().finally(() => rmSync(store, { recursive: true, force: true })) });
          serial = t.board.serialUrl;
          url = t.board.url;
          console.log(`[${e.name}] virtual board: booted in ${(t.bootMs / 1000).toFixed(1)} s (${t.board.accel.toUpperCase()}), web ${url}, serial console ${serial}, /data ${t.files.disk}`);
        }
        const target: TerminalTarget = { name: e.name!, serial, url, baud: e.baud ?? a.baud, brand, profile };
        const opts = {
          reportRoot: resolve(a.report),
          rebuild: a.rebuild,
          noSuites: !a.suites,
          playwrightArgs: [...(a.grep ? ['--grep', a.grep] : []), ...(a.splitSuites && all.length > 1 ? ['--shard', `${e.place}/${all.length}`] : [])],
          protocol: a.protocol,
          signal: stop.signal,
        };
        return a.rollback ? rollbackTerminal(target, opts) : runTerminal(target, opts);
      }),
    );
    console.log('\nterminal              result   report');
    for (const r of results) console.log(`${r.target.name.padEnd(21)} ${r.ok ? 'passed ' : 'FAILED '}  ${r.reportDir}/report.html`);
    if (stop.signal.aborted) return SIGNAL_STATUS[String(stop.signal.reason)] ?? 1;
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
