// Time groups (SPEC §3: group number with time1 to time4; §9: 4 slots). Each
// time is a time zone number; the same screen serves /advSetting/group.
import { SettingsForm, type FormDef } from '../../form/SettingsForm.tsx';

const def: FormDef = {
  read: 'SetGroupInfo',
  write: 'GetGroupInfo',
  key: { name: 'GroupNum', label: /*i18n*/ 'acc.groupNum', note: /*i18n*/ 'acc.groupNote' },
  fields: [
    { name: 'Time1', kind: 'number', label: /*i18n*/ 'acc.time1' },
    { name: 'Time2', kind: 'number', label: /*i18n*/ 'acc.time2' },
    { name: 'Time3', kind: 'number', label: /*i18n*/ 'acc.time3' },
    { name: 'Time4', kind: 'number', label: /*i18n*/ 'acc.time4' },
  ],
};

export default function ZoneSetting() {
  return <SettingsForm def={def} />;
}
