// Shifts (SPEC: fields not shown; chosen: name, on and off duty, late and
// early allowances; see ShiftsInfo in docs/API.md).
import { SettingsForm, type FormDef } from '../../form/SettingsForm.tsx';

const def: FormDef = {
  read: 'SetShiftsInfo',
  write: 'GetShiftsInfo',
  key: { name: 'ShiftNum', label: /*i18n*/ 'acc.shiftNum' },
  fields: [
    { name: 'Name', kind: 'text', label: /*i18n*/ 'acc.name' },
    { name: 'OnDuty', kind: 'time', label: /*i18n*/ 'acc.onDuty' },
    { name: 'OffDuty', kind: 'time', label: /*i18n*/ 'acc.offDuty' },
    { name: 'LateGrace', kind: 'number', label: /*i18n*/ 'acc.lateGrace', unit: /*i18n*/ 'unit.minutes' },
    { name: 'EarlyGrace', kind: 'number', label: /*i18n*/ 'acc.earlyGrace', unit: /*i18n*/ 'unit.minutes' },
  ],
};

export default function AdvShifts() {
  return <SettingsForm def={def} />;
}
