// System information (SPEC §3): versions, serial, MAC addresses, and each
// count with its capacity (face, fingerprint, iris only when supported).
// Read-only. The last answer is kept per user in local storage (SPEC §7) and
// shown at once; Refresh asks the device to recount (POST GetInfoParam).
import { useEffect, useState } from 'react';
import { i18n } from '@lingui/core';
import { requestGoform } from '../../api/request.ts';
import type { ResponseOf } from '../../api/contract.ts';
import { useStore } from '../../state/use-store.ts';
import { $session } from '../../state/session.ts';
import { Failed, Loading } from '../../ui/Status.tsx';
import { num, shown } from '../../i18n/format.ts';

type Info = ResponseOf<'SetInfoParam'>;

/** Rows to show, in order: [message id, text]. */
export function systemRows(i: Info): [string, string | number][] {
  const of = (n: number, max: number) => `${num(n)} / ${num(max)}`;
  const rows: [string, string | number | false][] = [
    [/*i18n*/ 'info.firmware', i.Build_Version],
    [/*i18n*/ 'basic.kernel', i.KernelVersion],
    [/*i18n*/ 'basic.fs', i.FSVersion],
    [/*i18n*/ 'info.serial', i.Serial],
    [/*i18n*/ 'basic.ethMac', i.EthMAC],
    [/*i18n*/ 'basic.wifiMac', i.WifiMAC],
    [/*i18n*/ 'basic.users', of(i.UserCount, i.MaxUser)],
    [/*i18n*/ 'route.fingerprint', i.funOption.FP === 1 && of(i.FPCount, i.MaxFP)],
    [/*i18n*/ 'basic.faces', i.funOption.FACE === 1 && of(i.FaceCount, i.MaxFACE)],
    [/*i18n*/ 'basic.iris', i.funOption.IRIS === 1 && of(i.IrisCount, i.MaxIRIS)],
    [/*i18n*/ 'basic.cards', i.CardCount],
    [/*i18n*/ 'route.recordList', of(i.RecordCount, i.MaxRecord)],
  ];
  return rows.filter((r): r is [string, string | number] => r[1] !== false && r[1] !== '');
}

/**
 * The device's answer to SetInfoParam, the last one (kept per user in local
 * storage, SPEC §7) until a fresh one arrives; `load(true)` asks the device
 * to recount first (GetInfoParam). The system information page and the
 * layout's device information dialog share it.
 */
export function useInfo() {
  const key = `info:${useStore($session)?.name ?? ''}`;
  const [info, setInfo] = useState<Info | null>(() => {
    try {
      return JSON.parse(localStorage.getItem(key) ?? 'null');
    } catch {
      return null;
    }
  });
  const [busy, setBusy] = useState(true);
  const [failed, setFailed] = useState(false);
  const load = (recount?: boolean) => {
    setBusy(true);
    setFailed(false);
    (recount ? requestGoform('GetInfoParam') : requestGoform('SetInfoParam'))
      .then((r) => {
        if (r.retvalue !== 0) throw r;
        setInfo(r as Info);
        localStorage.setItem(key, JSON.stringify(r));
      })
      .catch(() => setFailed(true))
      .finally(() => setBusy(false));
  };
  return { info, busy, failed, load };
}

/** Label and value rows, each value as the language writes it and in its own direction (a MAC stays left to right). */
export const InfoList = ({ rows }: { rows: [string, string | number][] }) => (
  <dl className="info-list">
    {rows.map(([label, value]) => (
      <div key={label}>
        <dt>{i18n._(label)}</dt>
        <dd>
          <bdi>{shown(value)}</bdi>
        </dd>
      </div>
    ))}
  </dl>
);

export function SystemInfo() {
  const { info, busy, failed, load } = useInfo();
  useEffect(() => load(), []);

  if (!info) return failed ? <Failed message={i18n._('msg.failed')} retry={load} /> : <Loading />;
  return (
    <section className="panel settings" aria-busy={busy}>
      <InfoList rows={systemRows(info)} />
      {failed && <p role="alert">{i18n._('msg.failed')}</p>}
      <div className="actions">
        <button type="button" className="button" disabled={busy} onClick={() => load(true)}>
          {i18n._('basic.refresh')}
        </button>
      </div>
    </section>
  );
}
