// Authorization mode (SPEC §2, §3, §4): whether Wiegand readers and Bluetooth
// devices must be authorized (WorkModeSwitch fields), and the two
// authorization lists: MAC address, model, machine number, route, status;
// authorize selected, cancel authorization, delete selected ("Are you Sure?").
// Each part shows only when the device function list has wiegand / bluetooth.
import { useEffect, useId, useMemo, useState } from 'react';
import { i18n } from '@lingui/core';
import { SettingsForm } from '../../form/SettingsForm.tsx';
import { Failed, Loading } from '../../ui/Status.tsx';
import { Table } from '../../ui/Table.tsx';
import { requestGoform } from '../../api/request.ts';
import { MSG_FAILED, MSG_SUCCESS, messageFor } from '../../api/errors.ts';
import type { Envelope, RequestOf, ResponseOf } from '../../../contract/index.ts';
import { notify } from '../../ui/toast.ts';
import { confirmAction } from '../../ui/confirm.tsx';
import { useStore } from '../../state/use-store.ts';
import { $session } from '../../state/session.ts';
import { authModeForm } from './forms.tsx';

type Item = ResponseOf<'SetAnvizWiegandAuthorize'>['list'][number];
type Selection = RequestOf<'DeleteSomeWiegand'>;

export function AuthorizationMode() {
  const funs = useStore($session)?.funs ?? [];
  const wiegand = funs.includes('wiegand');
  const bluetooth = funs.includes('bluetooth');
  const def = useMemo(() => authModeForm(wiegand, bluetooth), [wiegand, bluetooth]);
  if (!wiegand && !bluetooth) return <p className="panel">{i18n._('basic.empty')}</p>;
  return (
    <>
      <SettingsForm def={def} />
      {wiegand && (
        <AuthList
          title={/*i18n*/ 'basic.wiegandList'}
          read={() => requestGoform('SetAnvizWiegandAuthorize')}
          status={(p) => requestGoform('GetAnvizWiegandAuthorize', p)}
          remove={(p) => requestGoform('DeleteSomeWiegand', p)}
        />
      )}
      {bluetooth && (
        <AuthList
          title={/*i18n*/ 'basic.bleList'}
          read={() => requestGoform('SetBluetoothAuthorize')}
          status={(p) => requestGoform('GetBluetoothAuthorize', p)}
          remove={(p) => requestGoform('DeleteSomeBluetooth', p)}
        />
      )}
    </>
  );
}

interface ListProps {
  /** Message id of the heading. */
  title: string;
  read: () => Promise<Envelope & { list?: Item[] }>;
  status: (p: Selection & { Status: 0 | 1 }) => Promise<Envelope>;
  remove: (p: Selection) => Promise<Envelope>;
}

function AuthList({ title, read, status, remove }: ListProps) {
  const id = useId();
  const [list, setList] = useState<Item[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [picked, setPicked] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const load = () =>
    read().then(
      (r) => {
        setList(r.list ?? []);
        setPicked([]);
        setFailed(false);
      },
      () => setFailed(true),
    );
  useEffect(() => void load(), []);

  const act = async (call: (p: Selection) => Promise<Envelope>, ask?: boolean) => {
    if (ask && !(await confirmAction())) return;
    setBusy(true);
    try {
      const r = await call({ Macs: picked });
      notify(r.retvalue === 0 ? 'success' : 'error', r.retvalue === 0 ? i18n._(MSG_SUCCESS) : messageFor(r.retvalue, r.msg));
    } catch {
      // Already told by the request layer.
    }
    await load();
    setBusy(false);
  };
  let body;
  if (failed) body = <Failed message={i18n._(MSG_FAILED)} retry={load} />;
  else if (!list) body = <Loading />;
  else
    body = (
      <Table
        rows={list}
        rowKey={(d) => d.Mac}
        cols={[
          { head: i18n._('basic.mac'), cell: (d) => d.Mac },
          { head: i18n._('basic.model'), cell: (d) => d.Model },
          { head: i18n._('basic.machineNo'), cell: (d) => d.MachineNo },
          { head: i18n._('basic.route'), cell: (d) => d.Route },
          { head: i18n._('basic.status'), cell: (d) => i18n._(d.Status ? /*i18n*/ 'basic.authorized' : /*i18n*/ 'basic.unauthorized') },
        ]}
        empty={i18n._('basic.empty')}
        select={{ picked, onPick: (p) => setPicked(p as string[]), label: (d) => d.Mac, all: i18n._('basic.selectAll') }}
      />
    );

  const none = !picked.length || busy;
  return (
    <section className="panel" aria-labelledby={id} aria-busy={busy}>
      <h2 id={id}>{i18n._(title)}</h2>
      {body}
      <div className="actions">
        <button type="button" className="button primary" disabled={none} onClick={() => act((p) => status({ ...p, Status: 1 }))}>
          {i18n._('basic.authorize')}
        </button>
        <button type="button" className="button" disabled={none} onClick={() => act((p) => status({ ...p, Status: 0 }))}>
          {i18n._('basic.unauthorize')}
        </button>
        <button type="button" className="button" disabled={none} onClick={() => act(remove, true)}>
          {i18n._('basic.delete')}
        </button>
      </div>
    </section>
  );
}
