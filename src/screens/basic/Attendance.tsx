// Attendance (SPEC §3, §5): duplicate punch range 0-250 min, log alarm threshold 0-5000.
import { SettingsForm, type FormDef } from '../../form/SettingsForm.tsx';

export const attendanceForm: FormDef = {
  read: 'SetKaoqinParam',
  write: 'GetKaoqinParam',
  fields: [
    { name: 'RepeatTime', kind: 'number', label: /*i18n*/ 'att.repeatTime', unit: /*i18n*/ 'unit.minutes' },
    { name: 'AlarmLogs', kind: 'number', label: /*i18n*/ 'att.alarmLogs' },
  ],
};

export default function Attendance() {
  return <SettingsForm def={attendanceForm} />;
}
