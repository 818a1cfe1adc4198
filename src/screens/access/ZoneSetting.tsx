// Time groups (SPEC §3: group number with time1 to time4; §9: 4 slots). Each
// time is a time zone number; the same screen serves /advSetting/group.
import { rulesOf } from '../../api/rules.ts';
import { requestGoform } from '../../api/request.ts';
import { NumberedForm, type NumberedDef } from './parts.tsx';

const def: NumberedDef = {
  read: (n) => requestGoform('SetGroupInfo', { GroupNum: n }),
  write: (p) => requestGoform('GetGroupInfo', p as never),
  contract: rulesOf('GetGroupInfo'),
  key: 'GroupNum',
  keyLabel: /*i18n*/ 'acc.groupNum',
  note: /*i18n*/ 'acc.groupNote',
  fields: [
    { name: 'Time1', kind: 'number', label: /*i18n*/ 'acc.time1' },
    { name: 'Time2', kind: 'number', label: /*i18n*/ 'acc.time2' },
    { name: 'Time3', kind: 'number', label: /*i18n*/ 'acc.time3' },
    { name: 'Time4', kind: 'number', label: /*i18n*/ 'acc.time4' },
  ],
};

export default function ZoneSetting() {
  return <NumberedForm def={def} />;
}
