// Language choice (SPEC §1): the languages both this build and the device
// offer; the choice is kept in local storage and sent with every request.
import { useEffect, useState, type FormEvent } from 'react';
import { i18n } from '@lingui/core';
import { Dialog, DialogButtons } from '../ui/Dialog.tsx';
import { notify } from '../ui/toast.ts';
import { requestGoform } from '../api/request.ts';
import { MSG_LANGUAGE_SETTING_FAILED } from '../api/errors.ts';
import { activateLocale, languageName, useLocale } from '../i18n/index.ts';
import { BUILT_LOCALES, normalizeLocale } from '../i18n/locale.ts';

export function LanguageDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const locale = useLocale();
  const [offered, setOffered] = useState<readonly string[]>(BUILT_LOCALES);
  const [choice, setChoice] = useState(locale);
  useEffect(() => {
    if (!open) return;
    setChoice(locale);
    requestGoform('getLanList').then(
      (r) => {
        if (r.retvalue !== 0 || !Array.isArray(r.lans)) return;
        const device = new Set(r.lans.map((c) => normalizeLocale(c, BUILT_LOCALES)));
        const both = BUILT_LOCALES.filter((c) => device.has(c));
        if (both.length) setOffered(both);
      },
      () => undefined,
    );
  }, [open]);
  const apply = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await activateLocale(choice, true);
      onClose();
    } catch {
      notify('error', i18n._(MSG_LANGUAGE_SETTING_FAILED));
    }
  };
  return (
    <Dialog
      open={open}
      title={i18n._('menu.language')}
      onClose={onClose}
      footer={<DialogButtons onCancel={onClose} form="lang-form" />}
    >
      <form id="lang-form" onSubmit={apply}>
        <fieldset className="choices">
          <legend className="visually-hidden">{i18n._('menu.language')}</legend>
          {offered.map((code) => (
            <label key={code} lang={code}>
              <input type="radio" name="lang" value={code} checked={choice === code} onChange={() => setChoice(code)} />
              {languageName(code)}
            </label>
          ))}
        </fieldset>
      </form>
    </Dialog>
  );
}
