// The console in Firefox ESR and WebKitGTK (issue 34 §1, §2): the steps of
// scenario.ts in each engine, each engine with a simulated terminal of its own
// in its factory state, both engines at once (each mostly waits on its
// browser). Against a real terminal (TERMINAL_URL) they run one after the
// other, since they share it, and the activation step is skipped, saying why.
// Then: no page error and no console error in the whole run (also after a
// failed step), and the browser, its driver and its display closed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Driver, type Engine } from './driver.ts';
import { launchFirefox } from './firefox.ts';
import { activation, legible, rightToLeft, settings, signInStep, signOut, users } from './scenario.ts';
import { ON_TERMINAL, startTerminal, type Terminal } from './terminal.ts';
import { launchWebKit } from './webkit.ts';

const ACTIVATION_SKIPPED = 'needs a terminal in its factory state: only initialization brings one back, and it would wipe the bench terminal (QA runs it on a unit new from production)';

/**
 * A step; `alone`: the steps after it run even when it fails (it leaves the page as any other
 * would); `always`: it runs even when a step before it failed.
 */
type Step = [name: string, run: (d: Driver, t: Terminal) => Promise<void>, how?: 'alone' | 'always'];

/** The engines, and the user ID each adds (apart, so that the two never meet on one terminal). */
const ENGINES: [name: string, launch: () => Promise<Engine>, userId: string][] = [
  ['Firefox ESR', launchFirefox, '987659101'],
  ['WebKitGTK', launchWebKit, '987659102'],
];

const steps = (userId: string): Step[] => [
  ['every script drawn with a real font', (d) => legible(d), 'alone'],
  ...(ON_TERMINAL ? [] : ([['activation: the factory password leads to choosing one', (d) => activation(d)]] as Step[])),
  ['sign in, to the page asked for', (d) => signInStep(d)],
  ['the user list: add, find, edit, read back through the API', (d, t) => users(d, t, userId)],
  ['device settings: saved, read back through the API and after a reload', (d, t) => settings(d, t)],
  ['Farsi: right to left, the sidebar on the right; then English', (d) => rightToLeft(d)],
  ['log out: the login page, the old token refused', (d, t) => signOut(d, t)],
  ['no page error and no console error all along', async (d) => assert.equal(await d.errors(), []), 'always'],
];

type Outcome = { error?: unknown };

/** A step not run because one before it failed; it names that failure. */
class NotRun extends Error {
  constructor(cause: unknown) {
    super(`not run: a step before it failed (${(cause as Error).message ?? cause})`);
  }
}

const SHOTS = join(import.meta.dirname, '../../test-results/engines');

/** The window as the failed step left it, in test-results/engines/ (as Playwright leaves its own), named in the error. */
async function withScreenshot(error: unknown, engine: Engine | undefined, step: string): Promise<unknown> {
  if (!engine) return error;
  const file = join(SHOTS, `${engine.name} ${step}`.replace(/[^\w.-]+/g, '-').slice(0, 120) + '.png');
  try {
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(file, await engine.screenshot());
  } catch {
    return error; // a browser that is gone has no window to show
  }
  if (error instanceof Error) error.message += `\n    the window then: ${file}`;
  return error;
}

/**
 * One engine's run, started once `after` settles: its steps one after the
 * other, each one's outcome kept for its test (a step after a failed one does
 * not run, and says so); the browser and the terminal closed at the end
 * whatever happened. Outcomes, never rejected promises: a test awaits each
 * later, and a failure must not end the process before then.
 */
function start(launch: () => Promise<Engine>, userId: string, after: Promise<unknown>) {
  const outcomes = new Map<string, Promise<Outcome>>();
  let engine: Engine | undefined;
  let terminal: Terminal | undefined;
  let driver: Driver | undefined;
  let chain: Promise<Outcome> = after
    .then(async () => {
      terminal = await startTerminal();
      engine = await launch();
      driver = new Driver(engine, terminal.url);
      return {};
    })
    .catch((error) => ({ error }));
  for (const [name, run, how] of steps(userId)) {
    const step = chain.then(async (before): Promise<Outcome> => {
      if (before.error && (how !== 'always' || !driver)) return { error: before.error instanceof NotRun ? before.error : new NotRun(before.error) };
      try {
        await run(driver!, terminal!);
        return {};
      } catch (error) {
        return { error: await withScreenshot(error, engine, name) };
      }
    });
    outcomes.set(name, step);
    const gate = chain;
    chain = how === 'alone' ? step.then(() => gate) : step;
  }
  const closed: Promise<Outcome> = chain
    .then(async () => {
      try {
        await engine?.close();
      } finally {
        await terminal?.close();
      }
      return {};
    })
    .catch((error) => ({ error }));
  return { outcomes, closed, name: () => engine?.name };
}

// Against one terminal the second engine waits for the first to finish.
let previous: Promise<unknown> = Promise.resolve();
for (const [label, launch, userId] of ENGINES) {
  const run = start(launch, userId, previous);
  if (ON_TERMINAL) {
    previous = run.closed;
    // uvu counts a skipped test without its name: the reason is said here.
    console.log(`  ${label}: activation skipped on a terminal: it ${ACTIVATION_SKIPPED}`);
    test.skip(`${label}: activation`);
  }
  for (const [name] of steps(userId)) {
    test(`${label}: ${name}`, async () => {
      const { error } = await run.outcomes.get(name)!;
      if (error) throw error;
    });
  }
  test(`${label}: the browser, its driver and its display closed`, async () => {
    const { error } = await run.closed;
    if (error) throw error;
    console.log(`  ${label}: ${run.name() ?? 'not started'}`);
  });
}

test.run();
