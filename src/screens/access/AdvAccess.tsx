// Access (SPEC §3 Access): relay output, door sensor, relay delay, Wiegand
// output format (nine, SPEC §3), card number byte order and length, tamper
// alarm, 12 V supply. Ranges and choices come from the AccessControl contract.
import { SettingsForm, type FormDef } from '../../form/SettingsForm.tsx';
import { opts } from '../../form/validation.ts';

const WIEGAND = [
  /*i18n*/ 'acc.wg26',
  /*i18n*/ 'acc.wgVendor',
  /*i18n*/ 'acc.wgFixed26',
  /*i18n*/ 'acc.card26Big',
  /*i18n*/ 'acc.card26Little',
  /*i18n*/ 'acc.card34Big',
  /*i18n*/ 'acc.card34Little',
  /*i18n*/ 'acc.card66Big',
  /*i18n*/ 'acc.card66Little',
];

export const accessForm: FormDef = {
  read: 'SetAccessControl',
  write: 'GetAccessControl',
  fields: [
    {
      name: 'RelayMode',
      kind: 'select',
      label: /*i18n*/ 'acc.relayMode',
      options: opts(/*i18n*/ 'acc.none', /*i18n*/ 'acc.ring', /*i18n*/ 'acc.doorOpen'),
    },
    { name: 'RelayDelay', kind: 'number', label: /*i18n*/ 'acc.relayDelay', unit: /*i18n*/ 'basic.sec', dependsOn: { RelayMode: [1, 2] } },
    {
      name: 'DoorSensor',
      kind: 'select',
      label: /*i18n*/ 'acc.doorSensor',
      options: opts(/*i18n*/ 'acc.none', /*i18n*/ 'acc.normallyOpen', /*i18n*/ 'acc.normallyClosed'),
    },
    { name: 'WiegandFormat', kind: 'select', label: /*i18n*/ 'acc.wiegand', options: opts(...WIEGAND) },
    {
      name: 'CardDisplay',
      kind: 'radio',
      label: /*i18n*/ 'acc.cardDisplay',
      options: opts(/*i18n*/ 'acc.bigEnd', /*i18n*/ 'acc.littleEnd'),
    },
    {
      name: 'CardLength',
      kind: 'radio',
      label: /*i18n*/ 'acc.cardLength',
      options: [
        { value: 4, label: /*i18n*/ 'acc.bytes4' },
        { value: 3, label: /*i18n*/ 'acc.bytes3' },
      ],
    },
    { name: 'TamperAlarm', kind: 'switch', label: /*i18n*/ 'acc.tamper' },
    { name: 'Power12V', kind: 'switch', label: /*i18n*/ 'acc.power12V' },
  ],
};

export default function AdvAccess() {
  return <SettingsForm def={accessForm} />;
}
