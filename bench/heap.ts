// Section 4: heap growth over many walks through every screen of the
// console in one page (client-side navigation, no reload).
import type { CDPSession } from 'playwright';
import { MENU, allowedBy } from '../src/routing/routes.ts';
import { freshPage, signedIn, type Lab } from './browser.ts';
import { median, round, target, type Settings, type Target } from './lib.ts';

const GROWTH_TARGET = 0.1;
/** Screens left out of the walk, and why. */
const SKIP: Record<string, string> = {
  '/user/userEdit': 'needs ?UserID= (without it, the same user picker as /user/identify)',
  '/advSetting/restart': 'restarts the device',
  '/advSetting/initialization': 'resets the device',
};
/** A screen that has not settled after this long is reported and the walk goes on. */
const SETTLE_LIMIT_MS = 15_000;

/** Every screen of the layout the device's function list allows, in sidebar order (hidden ones too), but SKIP's. */
export function walkRoutes(funs: readonly string[]): { paths: string[]; skipped: Record<string, string> } {
  const paths: string[] = [];
  const skipped: Record<string, string> = {};
  for (const group of MENU) {
    for (const r of group.children ?? []) {
      if (!allowedBy(group, funs) || !allowedBy(r, funs)) skipped[r.path] = 'not in the device function list';
      else if (SKIP[r.path]) skipped[r.path] = SKIP[r.path];
      else paths.push(r.path);
    }
  }
  return { paths, skipped };
}

interface Heap {
  walk: number;
  /** Runtime.getHeapUsage after two HeapProfiler.collectGarbage. */
  usedBytes: number;
  totalBytes: number;
  /** Memory.getDOMCounters. */
  nodes: number;
  listeners: number;
  documents: number;
}

export interface HeapSection {
  walks: number;
  screens: string[];
  skipped: Record<string, string>;
  /** The walks compared: growth = (heap after `to` - heap after `from`) / heap after `from`. */
  from: number;
  to: number;
  fromBytes: number;
  toBytes: number;
  growth: number;
  /** Heap (after garbage collection) at every checkpoint. */
  heap: Heap[];
  /** Time of each walk, ms. */
  walkMs: { median: number; first: number; last: number };
  /** Screens that did not settle within the limit (path: times). */
  unsettled: Record<string, number>;
  result: Target;
}

async function heapNow(cdp: CDPSession, walk: number): Promise<Heap> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize, totalSize } = await cdp.send('Runtime.getHeapUsage');
  const dom = await cdp.send('Memory.getDOMCounters');
  return { walk, usedBytes: usedSize, totalBytes: totalSize, nodes: dom.nodes, listeners: dom.jsEventListeners, documents: dom.documents };
}

export async function measureHeap(s: Settings, lab: Lab): Promise<HeapSection> {
  const walks = s.short ? 3 : 100;
  const from = s.short ? 1 : 10;
  const every = s.short ? 1 : 10;
  const { paths, skipped } = walkRoutes(lab.sim.model.funs);
  const p = await freshPage(lab);
  try {
    await signedIn(p.page);
    const heap: Heap[] = [];
    const times: number[] = [];
    const unsettled: Record<string, number> = {};
    for (let w = 1; w <= walks; w++) {
      const r = await p.page.evaluate(([list, limit]) => window.__bench.walk(list, limit), [paths, SETTLE_LIMIT_MS] as const);
      times.push(r.ms);
      for (const u of r.unsettled) unsettled[u] = (unsettled[u] ?? 0) + 1;
      if (w === from || w === walks || w % every === 0) heap.push(await heapNow(p.cdp, w));
      if (w === 1 || w % 10 === 0 || w === walks) s.log(`heap: walk ${w} of ${walks} (${paths.length} screens) took ${Math.round(r.ms)} ms`);
    }
    const a = heap.find((h) => h.walk === from)!.usedBytes;
    const b = heap.find((h) => h.walk === walks)!.usedBytes;
    const growth = round((b - a) / a, 4);
    return {
      walks,
      screens: paths,
      skipped,
      from,
      to: walks,
      fromBytes: a,
      toBytes: b,
      growth,
      heap,
      walkMs: { median: round(median(times)), first: round(times[0]), last: round(times[times.length - 1]) },
      unsettled,
      result: target(`<= ${GROWTH_TARGET * 100} % from walk ${from} to walk ${walks}`, growth <= GROWTH_TARGET),
    };
  } finally {
    await p.close();
  }
}
