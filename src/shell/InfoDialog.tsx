// Device information (SPEC §2 Layout): firmware, max users, template
// capacities (each only if supported), max records, serial. The last answer
// is kept in local storage per user (SPEC §7), so it shows at once on a slow link.
import { useEffect, useState } from 'react';
import { i18n } from '@lingui/core';
import { Dialog } from '../ui/Dialog.tsx';
import { requestGoform } from '../api/request.ts';
import type { ResponseOf } from '../api/contract.ts';
import { useStore } from '../state/use-store.ts';
import { $session } from '../state/session.ts';

type Info = ResponseOf<'SetInfoParam'>;
const key = (user: string) => `info:${user}`;

function cached(user: string): Info | null {
  try {
    return JSON.parse(localStorage.getItem(key(user)) ?? 'null');
  } catch {
    return null;
  }
}

/** Rows to show, in order; capacities only for supported biometrics. */
export function infoRows(info: Info): [string, string | number][] {
  const rows: [string, string | number][] = [
    [/*i18n*/ 'info.firmware', info.Build_Version],
    [/*i18n*/ 'info.maxUser', info.MaxUser],
  ];
  if (info.funOption?.FACE === 1) rows.push([/*i18n*/ 'info.maxFace', info.MaxFACE]);
  if (info.funOption?.FP === 1) rows.push([/*i18n*/ 'info.maxFP', info.MaxFP]);
  if (info.funOption?.IRIS === 1) rows.push([/*i18n*/ 'info.maxIris', info.MaxIRIS]);
  rows.push([/*i18n*/ 'info.maxRecord', info.MaxRecord], [/*i18n*/ 'info.serial', info.Serial]);
  return rows;
}

export function InfoDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const user = useStore($session)?.name ?? '';
  const [info, setInfo] = useState<Info | null>(() => cached(user));
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!open) return;
    setFailed(false);
    requestGoform('SetInfoParam').then(
      (r) => {
        if (r.retvalue !== 0) return setFailed(true);
        const fresh = r as Info;
        setInfo(fresh);
        localStorage.setItem(key(user), JSON.stringify(fresh));
      },
      () => setFailed(true),
    );
  }, [open]);
  return (
    <Dialog open={open} title={i18n._('info.title')} onClose={onClose}>
      {info ? (
        <dl class="info-list">
          {infoRows(info).map(([label, value]) => (
            <div key={label}>
              <dt>{i18n._(label)}</dt>
              <dd>{String(value)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p aria-busy={!failed}>{failed ? i18n._('msg.failed') : i18n._('state.loading')}</p>
      )}
    </Dialog>
  );
}
