// Choose Wi-Fi (SPEC §2, §7): scan (GET SetAllWirless, then POST
// GetChooseWirless until it stops answering "wait"), list the networks, join
// the one chosen. A failed scan says "Obtaining failed, please refresh.".
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { i18n } from '@lingui/core';
import type { ResponseOf } from '../../../contract/index.ts';
import { requestGoform } from '../../api/request.ts';
import { MSG_WIFI_SCAN_FAILED } from '../../api/errors.ts';
import { Table } from '../../ui/Table.tsx';
import { SECURITY } from './forms.tsx';
import { untilDone } from '../../api/poll.ts';
import { JoinForm } from './Join.tsx';

type Network = NonNullable<ResponseOf<'GetChooseWirless'>['List']>[number];

export default function ChooseWifi() {
  const [list, setList] = useState<Network[] | 'scanning' | 'failed'>('scanning');
  const [chosen, setChosen] = useState<Network | null>(null);
  const alive = useRef(true);

  const scan = async () => {
    setList('scanning');
    setChosen(null);
    try {
      await requestGoform('SetAllWirless');
      const r = await untilDone(() => requestGoform('GetChooseWirless', {}), () => alive.current);
      if (alive.current) setList(r?.retvalue === 0 ? (r.List ?? []) : 'failed');
    } catch {
      if (alive.current) setList('failed');
    }
  };
  useEffect(() => {
    void scan();
    return () => {
      alive.current = false;
    };
  }, []);

  return (
    <section className="panel">
      <p className="actions">
        <button type="button" className="button" onClick={scan} disabled={list === 'scanning'}>
          {i18n._('basic.refresh')}
        </button>
        <Link href="/network/wirless/addWIFI" className="button">
          {i18n._('route.addWIFI')}
        </Link>
      </p>
      {list === 'scanning' ? (
        <p className="loading" role="status" aria-busy="true">
          {i18n._('net.scanning')}
        </p>
      ) : list === 'failed' ? (
        <p className="form-error" role="alert">
          {i18n._(MSG_WIFI_SCAN_FAILED)}
        </p>
      ) : (
        <Table
          rows={list}
          rowKey={(n) => n.Ssid}
          cols={[
            {
              head: i18n._('net.ssid'),
              cell: (n) => (
                <>
                  <button type="button" className="button" aria-pressed={chosen?.Ssid === n.Ssid} onClick={() => setChosen(n)}>
                    {n.Ssid}
                  </button>{' '}
                  {n.Connected ? i18n._('net.connected') : ''}
                </>
              ),
            },
            { head: i18n._('net.signal'), cell: (n) => `${n.Signal}%` },
            { head: i18n._('route.securityOne'), cell: (n) => i18n._(SECURITY[n.Security].label!) },
          ]}
          empty={i18n._('net.none')}
        />
      )}
      {chosen && <JoinForm key={chosen.Ssid} ssid={chosen.Ssid} security={chosen.Security} />}
    </section>
  );
}
