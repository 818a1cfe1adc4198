// Bluetooth (SPEC §3 Network): on/off, server and client switches, the
// address a client connects to; the paired devices (GET SetBleDevGroup), a
// search (GET GetSearchBleDev until it stops answering "wait") and pairing
// with a device found (POST GetBleConnect).
import { useEffect, useRef, useState } from 'react';
import { i18n } from '@lingui/core';
import type { ResponseOf } from '../../../contract/index.ts';
import { requestGoform } from '../../api/request.ts';
import { MSG_FAILED, MSG_SUCCESS } from '../../api/errors.ts';
import { notify } from '../../ui/toast.ts';
import { SettingsForm, type FormDef } from '../../form/SettingsForm.tsx';
import { Failed, Loading } from '../../ui/Status.tsx';
import { Table } from '../../ui/Table.tsx';
import { untilDone } from '../../api/poll.ts';

const ON = { BleOption: [1] };

const form: FormDef = {
  read: 'SetBluetoothParam',
  write: 'GetBluetoothParam',
  fields: [
    { name: 'BleOption', kind: 'switch', label: /*i18n*/ 'route.bluetooth' },
    { name: 'BleServer', kind: 'switch', label: /*i18n*/ 'net.bleServer', dependsOn: ON },
    { name: 'BleClient', kind: 'switch', label: /*i18n*/ 'net.bleClient', dependsOn: ON },
    { name: 'BleAddress', kind: 'text', label: /*i18n*/ 'net.bleAddress', dependsOn: { ...ON, BleClient: [1] }, required: true },
  ],
};

type Found = NonNullable<ResponseOf<'GetSearchBleDev'>['List']>[number];
type Paired = ResponseOf<'SetBleDevGroup'>['List'][number];

function Devices({ title, list, pair, busy }: { title: string; list: (Found | Paired)[]; pair?: (d: Found) => void; busy?: string }) {
  return (
    <>
      <h2>{title}</h2>
      <Table
        label={title}
        rows={list}
        rowKey={(d) => d.Address}
        cols={[
          { head: i18n._('net.name'), cell: (d) => d.Name },
          { head: i18n._('net.bleAddress'), cell: (d) => d.Address },
          ...(pair
            ? [
                {
                  head: i18n._('net.signal'),
                  cell: (d: Found | Paired) => (
                    <>
                      {(d as Found).Rssi} dBm{' '}
                      <button type="button" className="button" disabled={!!busy} aria-busy={busy === d.Address} aria-label={i18n._('net.pairWith', { name: d.Name })} onClick={() => pair(d as Found)}>
                        {i18n._('basic.pair')}
                      </button>
                    </>
                  ),
                },
              ]
            : []),
        ]}
        empty={i18n._('net.none')}
      />
    </>
  );
}

function BleDevices() {
  const [paired, setPaired] = useState<Paired[] | null | 'failed'>(null);
  const [found, setFound] = useState<Found[] | 'searching' | null>(null);
  const [busy, setBusy] = useState('');
  const alive = useRef(true);
  const loadPaired = () =>
    requestGoform('SetBleDevGroup').then(
      (r) => alive.current && setPaired(r.List ?? []),
      () => alive.current && setPaired('failed'),
    );
  useEffect(() => {
    void loadPaired();
    return () => {
      alive.current = false;
    };
  }, []);

  const search = async () => {
    setFound('searching');
    try {
      const r = await untilDone(() => requestGoform('GetSearchBleDev'), () => alive.current);
      if (alive.current) setFound(r?.retvalue === 0 ? (r.List ?? []) : null);
    } catch {
      if (alive.current) setFound(null);
    }
  };
  const pair = async (d: Found) => {
    setBusy(d.Address);
    try {
      const r = await requestGoform('GetBleConnect', { Address: d.Address });
      if (r.retvalue === 0) {
        notify('success', i18n._(MSG_SUCCESS));
        await loadPaired();
      }
    } catch {
      // The request layer said why.
    } finally {
      setBusy('');
    }
  };

  return (
    <section className="panel" style={{ marginTop: '1rem' }}>
      {paired === 'failed' ? (
        <Failed message={i18n._(MSG_FAILED)} retry={loadPaired} />
      ) : paired ? (
        <Devices title={i18n._('net.paired')} list={paired} />
      ) : (
        <Loading />
      )}
      <p className="actions">
        <button type="button" className="button primary" onClick={search} disabled={found === 'searching'} aria-busy={found === 'searching'}>
          {i18n._(found === 'searching' ? /*i18n*/ 'net.searching' : /*i18n*/ 'net.search')}
        </button>
      </p>
      {Array.isArray(found) && <Devices title={i18n._('net.found')} list={found} pair={pair} busy={busy} />}
    </section>
  );
}

export default () => (
  <>
    <SettingsForm def={form} />
    <BleDevices />
  </>
);
