// Device information (SPEC §2 Layout): firmware, max users, template
// capacities (each only if supported), max records, serial. The last answer
// is kept in local storage per user (SPEC §7), so it shows at once on a slow link.
import { useEffect } from 'react';
import { i18n } from '@lingui/core';
import { Dialog } from '../ui/Dialog.tsx';
import type { ResponseOf } from '../../contract/index.ts';
import { InfoList, useInfo } from '../screens/basic/info.tsx';

type Info = ResponseOf<'SetInfoParam'>;

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
  const { info, failed, load } = useInfo();
  useEffect(() => void (open && load()), [open]);
  return (
    <Dialog open={open} title={i18n._('info.title')} onClose={onClose}>
      {info ? <InfoList rows={infoRows(info)} /> : <p aria-busy={!failed}>{failed ? i18n._('msg.failed') : i18n._('state.loading')}</p>}
    </Dialog>
  );
}
