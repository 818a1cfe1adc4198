// Signed-in sessions (issue 25 §4): each session the device holds, with its
// account, address, since and last active; this one said in text, any other
// signed out after "Are you Sure?" (its next call then shows the sign-in page).
import { useEffect, useState } from 'react';
import { i18n } from '@lingui/core';
import { requestGoform } from '../../api/request.ts';
import { MSG_FAILED, MSG_SUCCESS, messageFor } from '../../api/errors.ts';
import type { ResponseOf } from '../../../contract/index.ts';
import { when } from '../../i18n/format.ts';
import { confirmAction } from '../../ui/confirm.tsx';
import { Failed, Loading } from '../../ui/Status.tsx';
import { Table } from '../../ui/Table.tsx';
import { notify } from '../../ui/toast.ts';

type Row = ResponseOf<'SetSessionList'>['List'][number];

export default function Sessions() {
  // null: reading; 0: the read failed.
  const [list, setList] = useState<Row[] | 0 | null>(null);
  const load = () => requestGoform('SetSessionList').then((r) => setList(r.List ?? []), () => setList(0));
  useEffect(() => void load(), []);
  const end = async (Id: string) => {
    if (!(await confirmAction())) return;
    const r = await requestGoform('GetSessionLogout', { Id }).catch(() => null);
    // 10005: it ended meanwhile (passed back by the request layer, which has said nothing).
    if (r) notify(r.retvalue ? 'error' : 'success', r.retvalue ? messageFor(r.retvalue, r.msg) : i18n._(MSG_SUCCESS));
    await load();
  };
  if (list === 0) return <Failed message={i18n._(MSG_FAILED)} retry={load} />;
  if (!list) return <Loading />;
  return (
    <section className="panel">
      <Table
        rows={list}
        rowKey={(s) => s.Id}
        label={i18n._('route.sessions')}
        cols={[
          { head: i18n._('login.username'), cell: (s) => s.User },
          { head: i18n._('net.ip'), cell: (s) => s.Address },
          { head: i18n._('ses.since'), cell: (s) => when(s.Since) },
          { head: i18n._('ses.last'), cell: (s) => when(s.LastActive) },
          {
            head: i18n._('user.operation'),
            cell: (s) =>
              s.Current ? (
                i18n._('ses.current')
              ) : (
                <button type="button" className="button" onClick={() => end(s.Id)}>
                  {i18n._('ses.signOut')}
                </button>
              ),
          },
        ]}
        empty=""
      />
    </section>
  );
}
