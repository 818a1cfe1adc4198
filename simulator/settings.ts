// Settings pairs in the simulated terminal: GET Set<Name> answers the stored
// values, POST Get<Name> stores them once the contract's validation passed.
// Values start from SEEDS (what a terminal ships with); a pair without a seed
// starts from its fields' lowest valid values.
import { CALLS, type CallSpec, type Field } from '../contract/index.ts';
import type { CallImpl, DeviceState } from './types.ts';

import * as basic from './areas/basic.ts';
import * as network from './areas/network.ts';
import * as access from './areas/access.ts';
import * as users from './areas/users.ts';
import * as records from './areas/records.ts';
import * as maintenance from './areas/maintenance.ts';
import * as certificate from './areas/certificate.ts';
import * as sessions from './areas/sessions.ts';

/** Factory values per pair, from each area. */
export const SEEDS: Record<string, Record<string, unknown>> = { ...basic.seeds, ...network.seeds, ...access.seeds };
/** The administrator's web settings (RestParam over its factory values): the names the terminal answers to, how long a session may be unused. */
export const webSettings = (state: DeviceState) => ({ ...SEEDS.RestParam, ...state.settings.RestParam }) as { HostNames: string; IdleMinutes: number };
/** Calls an area implements itself (scans, pairing, lists). */
export const AREA_HANDLERS: Record<string, CallImpl> = { ...basic.handlers, ...network.handlers, ...access.handlers, ...users.handlers, ...records.handlers, ...maintenance.handlers, ...certificate.handlers, ...sessions.handlers };

function initial(f: Field): unknown {
  if (f.values?.length) return f.values[0];
  if (f.kind === 'int' || f.kind === 'flag') return f.min ?? 0;
  if (f.kind === 'strings' || f.kind === 'objects') return [];
  if (f.kind === 'object') return {};
  return '';
}

export function seedSettings(): DeviceState['settings'] {
  const out: DeviceState['settings'] = {};
  for (const [name, spec] of Object.entries(CALLS) as [string, CallSpec][]) {
    // A multipart Get* (GetCertificate) takes files, which its area keeps: no settings pair.
    if (!name.startsWith('Get') || spec.method !== 'POST' || spec.encoding === 'multipart' || spec.fieldsPending || !Object.keys(spec.request).length) continue;
    const pair = name.slice(3);
    if (!(`Set${pair}` in CALLS)) continue;
    out[pair] = Object.fromEntries(Object.entries(spec.request).map(([k, f]) => [k, SEEDS[pair]?.[k] ?? initial(f)]));
  }
  return out;
}

/** Only the fields the contract names, and only own ones: nothing else is stored or answered, ever. */
function named(values: Readonly<Record<string, unknown>>, fields: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(fields)) if (Object.prototype.hasOwnProperty.call(values, k)) out[k] = values[k];
  return out;
}

/** Handlers for every defined pair (the read and the write). */
export function pairHandlers(): Record<string, CallImpl> {
  const out: Record<string, CallImpl> = {};
  // Built once: the factory values under what a store holds (copied into every answer, never shared).
  const seeds = seedSettings();
  for (const pair of Object.keys(seeds)) {
    const fields = (CALLS as Record<string, CallSpec>)[`Get${pair}`].request;
    out[`Set${pair}`] = { handle: (ctx) => named({ ...seeds[pair], ...ctx.store.get().settings[pair] }, fields) };
    out[`Get${pair}`] = {
      async handle(ctx, p) {
        await ctx.store.update((s) => {
          s.settings[pair] = named({ ...seeds[pair], ...s.settings[pair], ...p }, fields);
        });
        return {};
      },
    };
  }
  return out;
}
