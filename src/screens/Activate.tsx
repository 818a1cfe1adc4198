// Activation (docs/API.md, "Activation"): a terminal in its factory state
// lets the factory credential sign in only to choose the administrator
// password. One step after sign-in: the new password twice, the rules said
// at the field; the device's refusal (a password a brute-force list tries
// first) shows there too, and what was typed stays. Then on to the page the
// visitor wanted. It ships with the signed-in part (shell/SignedIn.tsx): a
// file of its own would split what it shares with the login page into a
// third file on the login path.
import { useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { i18n } from '@lingui/core';
import { Field } from '../ui/Field.tsx';
import { notify } from '../ui/toast.ts';
import { requestGoform } from '../api/request.ts';
import { MSG_SUCCESS, messageFor } from '../api/errors.ts';
import { WEAK_PASSWORD } from '../../contract/codes.ts';
import { PASSWORD_DIGITS, digitsOnly, validateNew, type NewPassword } from '../form/password.ts';
import { homePath, safeRedirect } from '../routing/guard.ts';
import { $session } from '../state/session.ts';

// Device messages shown by the `msg` the device answers: marked for the catalogue.
void [/*i18n*/ 'msg.weakPassword', /*i18n*/ 'msg.activateFirst'];

export default function Activate() {
  const [, navigate] = useLocation();
  const search = useSearch();
  const [form, setForm] = useState<NewPassword>({ newpwd: '', confirm: '' });
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState('');
  const errors = checked ? validateNew(form) : {};

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (Object.keys(validateNew(form)).length) return;
    setBusy(true);
    try {
      // 40202 / 10003 / 10005 come back as replies too (request.ts): each is about the one field.
      const r = await requestGoform('Activate', { newpwd: form.newpwd }, { expect: [WEAK_PASSWORD] });
      if (r.retvalue === 0) {
        notify('success', i18n._(MSG_SUCCESS));
        navigate(safeRedirect(new URLSearchParams(search).get('redirect')) ?? homePath($session.get()?.funs ?? []), { replace: true });
      } else setRefused(messageFor(r.retvalue, r.msg));
    } catch {
      // Said by the request layer; what was typed stays.
    } finally {
      setBusy(false);
    }
  };

  const set = (k: keyof NewPassword) => (v: string) => {
    setForm({ ...form, [k]: v });
    setRefused('');
  };
  // The rules describe the box until an error does.
  const newError = refused || (errors.newpwd && i18n._(errors.newpwd));
  const pwd = { type: 'password', inputMode: 'numeric', autoComplete: 'new-password', maxLength: PASSWORD_DIGITS, normalize: digitsOnly } as const;
  return (
    <div className="login-page">
      <main className="login-card">
        <h1>{i18n._('act.title')}</h1>
        <p>{i18n._('act.intro')}</p>
        <form onSubmit={submit} noValidate>
          <p className="hint" id="act-rules">
            {i18n._('act.rules')}
          </p>
          <Field {...pwd} {...(!newError && { 'aria-describedby': 'act-rules' })} label={i18n._('pwd.new')} value={form.newpwd} error={newError} onValue={set('newpwd')} />
          <Field {...pwd} label={i18n._('pwd.confirm')} value={form.confirm} error={errors.confirm && i18n._(errors.confirm)} onValue={set('confirm')} />
          <button type="submit" className="button primary wide" disabled={busy} aria-busy={busy}>
            {i18n._('action.save')}
          </button>
        </form>
      </main>
    </div>
  );
}
