// Always-open and always-closed periods (SPEC §3 Period: number, name, start,
// end, cycle): GET SetGroupTime reads them, POST AddGroupTime adds one,
// POST DelSomeGroup deletes the selected ones (both URL-encoded).
import { i18n } from '@lingui/core';
import { opts, type Problem, type Values } from '../../form/validation.ts';
import { RecordList, type ListDef } from '../../form/RecordList.tsx';

const CYCLES = [/*i18n*/ 'acc.once', /*i18n*/ 'acc.daily', /*i18n*/ 'acc.weekly', /*i18n*/ 'acc.monthly', /*i18n*/ 'acc.yearly'];

const def = (type: 0 | 1): ListDef => ({
  read: 'SetGroupTime',
  items: 'Periods',
  add: 'AddGroupTime',
  del: 'DelSomeGroup',
  params: { Type: type },
  cols: [
    ['Num', /*i18n*/ 'acc.num'],
    ['Name', /*i18n*/ 'acc.name'],
    ['Start', /*i18n*/ 'acc.start'],
    ['End', /*i18n*/ 'acc.end'],
    ['Cycle', /*i18n*/ 'acc.cycle', (v) => i18n._(CYCLES[Number(v)] ?? String(v))],
  ],
  fields: [
    { name: 'Name', kind: 'text', label: /*i18n*/ 'acc.name' },
    { name: 'Start', kind: 'datetime', label: /*i18n*/ 'acc.start' },
    { name: 'End', kind: 'datetime', label: /*i18n*/ 'acc.end' },
    { name: 'Cycle', kind: 'select', label: /*i18n*/ 'acc.cycle', options: opts(...CYCLES) },
  ],
  blank: { Name: '', Start: '', End: '', Cycle: 0 },
  addTitle: /*i18n*/ 'acc.addPeriod',
  none: /*i18n*/ 'acc.selectPeriod',
  check: (v: Values): Record<string, Problem> => (v.Start && v.End && String(v.End) <= String(v.Start) ? { End: { id: /*i18n*/ 'acc.endBeforeStart' } } : {}),
});
const OPEN = def(1);
const CLOSED = def(0);

/** Type 1: always open; 0: always closed. */
export function Periods({ type }: { type: 0 | 1 }) {
  return <RecordList key={type} def={type ? OPEN : CLOSED} />;
}
