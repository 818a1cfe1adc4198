// The user list (SPEC §2 /user/userList): User ID, User Name, Card ID and
// Operation, one page at a time from the device; search by user ID and by
// start and end time; delete selected ("Please select user!", "Are you
// Sure?"); import from a spreadsheet and export every user; on a phone a
// circle-plus button opens the add route.
import { useState } from 'react';
import { Link } from 'wouter';
import { i18n } from '@lingui/core';
import type { ResponseOf } from '../../../contract/index.ts';
import { requestGoform } from '../../api/request.ts';
import { download } from '../../api/file.ts';
import { PagedTable } from '../../form/PagedTable.tsx';
import { Search } from '../../form/Search.tsx';
import type { Values } from '../../form/validation.ts';
import { removeAsked } from '../../form/RecordList.tsx';
import { Icon } from '../../ui/Icon.tsx';
import type { Key } from '../../ui/Table.tsx';
import { Import } from './Import.tsx';

type Row = ResponseOf<'userlist'>['List'][number];

const SEARCH = [
  { name: 'UserID', kind: 'text', label: /*i18n*/ 'user.id' },
  { name: 'Start', kind: 'date', label: /*i18n*/ 'user.start' },
  { name: 'End', kind: 'date', label: /*i18n*/ 'user.end' },
] as const;
const NO_SEARCH: Values = { UserID: '', Start: '', End: '' };

export default function UserList() {
  const [query, setQuery] = useState(NO_SEARCH);
  const [picked, setPicked] = useState<Key[]>([]);
  const [reload, setReload] = useState(0);
  const [importing, setImporting] = useState(false);

  /** Delete one user (its row's button) or the selected ones. */
  const remove = (ids: Key[], one?: boolean) =>
    removeAsked(
      ids.length,
      /*i18n*/ 'user.selectUser',
      () => (one ? requestGoform('deleteuser', { UserID: String(ids[0]) }) : requestGoform('deletsomeuser', { UserIDs: ids.map(String) })),
      () => setReload((n) => n + 1),
    );


  return (
    <section className="panel">
      <Search call="userlist" fields={SEARCH} blank={NO_SEARCH} onQuery={setQuery} />
      <div className="actions">
        <Link className="button primary desktop" href="/user/addUser">
          {i18n._('route.addUser')}
        </Link>
        <button type="button" className="button" onClick={() => remove(picked)}>
          {i18n._('basic.delete')}
        </button>
        <button type="button" className="button" onClick={() => setImporting(true)}>
          {i18n._('user.import')}
        </button>
        <button type="button" className="button" onClick={() => download('ExportUserAll', {}, 'users.xlsx')}>
          {i18n._('user.export')}
        </button>
      </div>
      <PagedTable<Row>
        read="userlist"
        query={query}
        reload={reload}
        label={i18n._('route.userList')}
        rowKey={(u) => u.UserID}
        empty={i18n._('user.none')}
        select={{ picked, onPick: setPicked, label: (u) => i18n._('acc.select', { name: u.UserName }), all: i18n._('basic.selectAll') }}
        cols={[
          { head: i18n._('user.id'), cell: (u) => u.UserID },
          { head: i18n._('user.name'), cell: (u) => u.UserName },
          { head: i18n._('user.card'), cell: (u) => u.CardNo },
          {
            head: i18n._('user.operation'),
            cell: (u) => (
              <span className="row-actions">
                <Link href={`/user/userEdit?UserID=${u.UserID}`}>{i18n._('user.edit')}</Link>
                <button type="button" className="link" onClick={() => remove([u.UserID], true)}>
                  {i18n._('acc.delete')}
                </button>
              </span>
            ),
          },
        ]}
      />
      <Link className="fab" href="/user/addUser" aria-label={i18n._('route.addUser')}>
        <Icon name="plus" size={28} />
      </Link>
      {importing && <Import onClose={(added) => (setImporting(false), added && setReload((n) => n + 1))} />}
    </section>
  );
}
