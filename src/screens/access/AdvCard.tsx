// Card settings (SPEC §3: show, identify, read mode; the fields are the
// contract's choice, see CardInfo in docs/API.md).
import { SettingsForm, type FormDef } from '../../form/SettingsForm.tsx';
import { opts } from '../../form/validation.ts';

export const cardForm: FormDef = {
  read: 'SetCardInfo',
  write: 'GetCardInfo',
  fields: [
    { name: 'ShowCard', kind: 'switch', label: /*i18n*/ 'acc.showCard' },
    { name: 'CardIdentify', kind: 'switch', label: /*i18n*/ 'acc.cardIdentify' },
    {
      name: 'ReadMode',
      kind: 'radio',
      label: /*i18n*/ 'acc.readMode',
      options: opts(/*i18n*/ 'acc.readSerial', /*i18n*/ 'acc.readSector'),
    },
    { name: 'Sector', kind: 'number', label: /*i18n*/ 'acc.sector', dependsOn: { ReadMode: [1] } },
  ],
};

export default function AdvCard() {
  return <SettingsForm def={cardForm} />;
}
