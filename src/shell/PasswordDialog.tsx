// Modify password (SPEC §5): user ID read-only from the stored user name;
// old, new and confirm limited to 6 digits, non-digits stripped as typed;
// each required with its own message; new and confirm must match.
import { useState, type FormEvent } from 'react';
import { i18n } from '@lingui/core';
import { Dialog, DialogButtons } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { notify } from '../ui/toast.ts';
import { requestGoform } from '../api/request.ts';
import { MSG_SUCCESS, messageFor } from '../api/errors.ts';
import { WEAK_PASSWORD } from '../../contract/codes.ts';
import { useStore } from '../state/use-store.ts';
import { $session } from '../state/session.ts';
import { PASSWORD_DIGITS, digitsOnly, validateNew, type NewPassword } from '../form/password.ts';


export interface PasswordForm extends NewPassword {
  oldpwd: string;
}
type Errors = Partial<Record<keyof PasswordForm, string>>;

/** The dialog's rules as a function (unit-tested): the current password required, then the new one's rules. Returns message ids. */
export function validatePassword(f: PasswordForm): Errors {
  const e: Errors = validateNew(f);
  if (!f.oldpwd) e.oldpwd = /*i18n*/ 'pwd.enterCurrent';
  return e;
}

const EMPTY: PasswordForm = { oldpwd: '', newpwd: '', confirm: '' };

export function PasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const session = useStore($session);
  const [form, setForm] = useState(EMPTY);
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const errors = checked ? validatePassword(form) : {};
  const set = (k: keyof PasswordForm) => (v: string) => {
    setForm({ ...form, [k]: v });
    setServerErrors({});
  };
  const close = () => {
    setForm(EMPTY);
    setChecked(false);
    setServerErrors({});
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (Object.keys(validatePassword(form)).length) return;
    setBusy(true);
    try {
      const r = await requestGoform('EditPwd', { userid: session?.name ?? '', oldpwd: form.oldpwd, newpwd: form.newpwd }, { expect: [WEAK_PASSWORD] });
      if (r.retvalue === 0) {
        notify('success', i18n._(MSG_SUCCESS));
        close();
      } else {
        // 10003 / 10005 name the field at fault; keep what was typed.
        const field = r.field === 'oldpwd' ? 'oldpwd' : 'newpwd';
        setServerErrors({ [field]: messageFor(r.retvalue, r.msg) });
      }
    } catch {
      // Told by the request layer; the typed values stay.
    } finally {
      setBusy(false);
    }
  };
  const msg = (k: keyof PasswordForm) => serverErrors[k] ?? (errors[k] && i18n._(errors[k]));
  const pwd = { type: 'password', inputMode: 'numeric', autoComplete: 'off', maxLength: PASSWORD_DIGITS, normalize: digitsOnly } as const;
  return (
    <Dialog
      open={open}
      title={i18n._('pwd.title')}
      onClose={close}
      footer={<DialogButtons onCancel={close} form="pwd-form" busy={busy} />}
    >
      <form id="pwd-form" onSubmit={submit} noValidate>
        <Field label={i18n._('pwd.userId')} value={session?.name ?? ''} readOnly autoComplete="username" />
        <Field {...pwd} label={i18n._('pwd.old')} value={form.oldpwd} error={msg('oldpwd')} onValue={set('oldpwd')} />
        <Field {...pwd} label={i18n._('pwd.new')} value={form.newpwd} error={msg('newpwd')} onValue={set('newpwd')} />
        <Field {...pwd} label={i18n._('pwd.confirm')} value={form.confirm} error={msg('confirm')} onValue={set('confirm')} />
      </form>
    </Dialog>
  );
}
