// Always-open and always-closed periods (SPEC §3 Period: number, name, start,
// end, cycle): GET SetGroupTime reads them, POST AddGroupTime adds one,
// POST DelSomeGroup deletes the selected ones (both URL-encoded).
import { i18n } from '@lingui/core';
import { requestGoform } from '../../api/request.ts';
import type { Problem, Values } from '../../form/rules.ts';
import { ItemList, type ListDef } from './parts.tsx';

const CYCLES = [/*i18n*/ 'acc.once', /*i18n*/ 'acc.daily', /*i18n*/ 'acc.weekly', /*i18n*/ 'acc.monthly', /*i18n*/ 'acc.yearly'];

/** Type 1: always open; 0: always closed. */
export function Periods({ type }: { type: 0 | 1 }) {
  const def: ListDef = {
    read: () => requestGoform('SetGroupTime', { Type: type }),
    items: 'Periods',
    add: (p) => requestGoform('AddGroupTime', { ...p, Type: type } as never),
    del: (Nums) => requestGoform('DelSomeGroup', { Type: type, Nums }),
    cols: [
      ['Num', /*i18n*/ 'acc.num'],
      ['Name', /*i18n*/ 'acc.name'],
      ['Start', /*i18n*/ 'acc.start'],
      ['End', /*i18n*/ 'acc.end'],
      ['Cycle', /*i18n*/ 'acc.cycle', (v) => i18n._(CYCLES[Number(v)] ?? String(v))],
    ],
    fields: [
      { name: 'Name', kind: 'text', label: /*i18n*/ 'acc.name' },
      { name: 'Start', kind: 'text', label: /*i18n*/ 'acc.start', datetime: true },
      { name: 'End', kind: 'text', label: /*i18n*/ 'acc.end', datetime: true },
      { name: 'Cycle', kind: 'select', label: /*i18n*/ 'acc.cycle', options: CYCLES.map((label, value) => ({ value, label })) },
    ],
    blank: { Name: '', Start: '', End: '', Cycle: 0 },
    addTitle: /*i18n*/ 'acc.addPeriod',
    none: /*i18n*/ 'acc.selectPeriod',
    check: (v: Values): Record<string, Problem> => (v.Start && v.End && String(v.End) <= String(v.Start) ? { End: { id: /*i18n*/ 'acc.endBeforeStart' } } : {}),
  };
  return <ItemList def={def} />;
}
