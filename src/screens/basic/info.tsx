// System information (SPEC §3): versions, serial, MAC addresses, and each
// count against its capacity as a bar (face, fingerprint, iris only when
// supported), with a warning in words above 90 %.
// Read-only. The last answer is kept per user in local storage (SPEC §7) and
// shown at once; Refresh asks the device to recount (POST GetInfoParam).
import { useEffect, useState } from 'react';
import { i18n } from '@lingui/core';
import { requestGoform } from '../../api/request.ts';
import type { ResponseOf } from '../../../contract/index.ts';
import { useStore } from '../../state/use-store.ts';
import { $session } from '../../state/session.ts';
import { Failed, Loading } from '../../ui/Status.tsx';
import { num, shown } from '../../i18n/format.ts';
import { $door, doorSummary } from '../../api/door.ts';

type Info = ResponseOf<'SetInfoParam'>;

/** A row: [message id, value, capacity]; with a capacity above 0 the value is a count shown against it as a bar. */
export type Row = [string, string | number, number?];

/** Rows to show, in order; a count with its capacity only for what the device supports. */
export function systemRows(i: Info): Row[] {
  const rows: [string, string | number | false, number?][] = [
    [/*i18n*/ 'info.firmware', i.Build_Version],
    [/*i18n*/ 'basic.kernel', i.KernelVersion],
    [/*i18n*/ 'basic.fs', i.FSVersion],
    [/*i18n*/ 'info.serial', i.Serial],
    [/*i18n*/ 'basic.ethMac', i.EthMAC],
    [/*i18n*/ 'basic.wifiMac', i.WifiMAC],
    [/*i18n*/ 'basic.users', i.UserCount, i.MaxUser],
    [/*i18n*/ 'route.fingerprint', i.funOption.FP === 1 && i.FPCount, i.MaxFP],
    [/*i18n*/ 'basic.faces', i.funOption.FACE === 1 && i.FaceCount, i.MaxFACE],
    [/*i18n*/ 'basic.iris', i.funOption.IRIS === 1 && i.IrisCount, i.MaxIRIS],
    [/*i18n*/ 'basic.cards', i.CardCount, i.MaxCard],
    [/*i18n*/ 'route.recordList', i.RecordCount, i.MaxRecord],
  ];
  return rows.filter((r): r is Row => r[1] !== false && r[1] !== '');
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

/**
 * Label and value rows, each value as the language writes it and in its own
 * direction (a MAC stays left to right). A count with a capacity reads
 * "used / max" over a bar (role meter, filled from the inline start); above
 * 90 % the bar takes the warning colour and the row says so in words.
 */
export const InfoList = ({ rows }: { rows: Row[] }) => (
  <dl className="info-list">
    {rows.map(([label, value, max = 0]) => {
      const text = max > 0 ? `${num(+value)} / ${num(max)}` : shown(value);
      const share = max && Math.min(1, +value / max);
      return (
        <div key={label} className={max > 0 ? (share > 0.9 ? 'cap full' : 'cap') : undefined}>
          <dt>{i18n._(label)}</dt>
          <dd>
            <bdi>{text}</bdi>
            {max > 0 && (
              <span role="meter" className="meter" aria-label={i18n._(label)} aria-valuemin={0} aria-valuemax={max} aria-valuenow={+value} aria-valuetext={text}>
                <i style={{ inlineSize: `${share * 100}%` }} />
              </span>
            )}
            {share > 0.9 && <strong> {i18n._(/*i18n*/ 'info.almostFull')}</strong>}
          </dd>
        </div>
      );
    })}
  </dl>
);

export function SystemInfo() {
  const { info, busy, failed, load } = useInfo();
  // The sidebar reads the door as the page opens (where the device has one).
  const door = useStore($door);
  const funs = useStore($session)?.funs ?? [];
  useEffect(() => load(), []);

  if (!info) return failed ? <Failed message={i18n._('msg.failed')} retry={load} /> : <Loading />;
  return (
    <section className="panel settings" aria-busy={busy}>
      <InfoList rows={door && funs.includes('door') ? [...systemRows(info), [/*i18n*/ 'route.door', doorSummary(door)]] : systemRows(info)} />
      {failed && <p role="alert">{i18n._('msg.failed')}</p>}
      <div className="actions">
        <button type="button" className="button" disabled={busy} onClick={() => load(true)}>
          {i18n._('basic.refresh')}
        </button>
      </div>
    </section>
  );
}
