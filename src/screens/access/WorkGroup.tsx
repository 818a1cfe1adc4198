// Work groups (SPEC: fields not shown; chosen: number, name and the time group
// it passes in), kept as the device's universal groups: GET SetUniversalGroup
// reads, POST GetUniversalGroup adds, POST DelSomeGroup (type 2) deletes.
import { RecordList, type ListDef } from '../../form/RecordList.tsx';

const def: ListDef = {
  read: 'SetUniversalGroup',
  items: 'Groups',
  add: 'GetUniversalGroup',
  del: 'DelSomeGroup',
  delParams: { Type: 2 },
  cols: [
    ['Num', /*i18n*/ 'acc.num'],
    ['Name', /*i18n*/ 'acc.name'],
    ['TimeGroup', /*i18n*/ 'acc.timeGroup'],
  ],
  fields: [
    { name: 'Name', kind: 'text', label: /*i18n*/ 'acc.name' },
    { name: 'TimeGroup', kind: 'number', label: /*i18n*/ 'acc.timeGroup' },
  ],
  blank: { Name: '', TimeGroup: 1 },
  addTitle: /*i18n*/ 'acc.addGroup',
  none: /*i18n*/ 'acc.selectGroup',
};

export default function WorkGroup() {
  return <RecordList def={def} />;
}
