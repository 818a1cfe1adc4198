// Work groups (SPEC: fields not shown; chosen: number, name and the time group
// it passes in), kept as the device's universal groups: GET SetUniversalGroup
// reads, POST GetUniversalGroup adds, POST DelSomeGroup (type 2) deletes.
import { rulesOf } from '../../api/rules.ts';
import { requestGoform } from '../../api/request.ts';
import { ItemList, type ListDef } from './parts.tsx';

const def: ListDef = {
  read: () => requestGoform('SetUniversalGroup'),
  items: 'Groups',
  add: (p) => requestGoform('GetUniversalGroup', p as never),
  del: (Nums) => requestGoform('DelSomeGroup', { Type: 2, Nums }),
  cols: [
    ['Num', /*i18n*/ 'acc.num'],
    ['Name', /*i18n*/ 'acc.name'],
    ['TimeGroup', /*i18n*/ 'acc.timeGroup'],
  ],
  contract: rulesOf('GetUniversalGroup'),
  fields: [
    { name: 'Name', kind: 'text', label: /*i18n*/ 'acc.name' },
    { name: 'TimeGroup', kind: 'number', label: /*i18n*/ 'acc.timeGroup' },
  ],
  blank: { Name: '', TimeGroup: 1 },
  addTitle: /*i18n*/ 'acc.addGroup',
  none: /*i18n*/ 'acc.selectGroup',
};

export default function WorkGroup() {
  return <ItemList def={def} />;
}
