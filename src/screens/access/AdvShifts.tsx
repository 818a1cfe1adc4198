// Shifts (SPEC: fields not shown; chosen: name, on and off duty, late and
// early allowances; see ShiftsInfo in docs/API.md).
import { rulesOf } from '../../api/rules.ts';
import { requestGoform } from '../../api/request.ts';
import { NumberedForm, type NumberedDef } from './parts.tsx';

const def: NumberedDef = {
  read: (n) => requestGoform('SetShiftsInfo', { ShiftNum: n }),
  write: (p) => requestGoform('GetShiftsInfo', p as never),
  contract: rulesOf('GetShiftsInfo'),
  key: 'ShiftNum',
  keyLabel: /*i18n*/ 'acc.shiftNum',
  fields: [
    { name: 'Name', kind: 'text', label: /*i18n*/ 'acc.name' },
    { name: 'OnDuty', kind: 'time', label: /*i18n*/ 'acc.onDuty' },
    { name: 'OffDuty', kind: 'time', label: /*i18n*/ 'acc.offDuty' },
    { name: 'LateGrace', kind: 'number', label: /*i18n*/ 'acc.lateGrace', unit: /*i18n*/ 'unit.minutes' },
    { name: 'EarlyGrace', kind: 'number', label: /*i18n*/ 'acc.earlyGrace', unit: /*i18n*/ 'unit.minutes' },
  ],
};

export default function AdvShifts() {
  return <NumberedForm def={def} />;
}
