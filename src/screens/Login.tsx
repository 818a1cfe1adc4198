// Sign-in (SPEC §2, §5): user name and password required; on success the
// token and function list are stored and the visitor returns to the page
// they wanted, or to / or /network by the function list.
import { useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { i18n } from '@lingui/core';
import { Field } from '../ui/Field.tsx';
import { requestGoform } from '../api/request.ts';
import { messageFor } from '../api/errors.ts';
import { signIn, takeNotice } from '../state/session.ts';
import { homePath, safeRedirect } from '../routing/guard.ts';
import { brand } from '../brand.ts';

export interface LoginForm {
  username: string;
  password: string;
}

export function validateLogin(f: LoginForm): Partial<Record<keyof LoginForm, string>> {
  const e: Partial<Record<keyof LoginForm, string>> = {};
  if (!f.username.trim()) e.username = /*i18n*/ 'login.needUser';
  if (!f.password) e.password = /*i18n*/ 'login.needPassword';
  return e;
}

export default function Login() {
  const [, navigate] = useLocation();
  const search = useSearch();
  const [form, setForm] = useState<LoginForm>({ username: '', password: '' });
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  // Why the last session ended (idle, refused token), until the next attempt.
  const [failure, setFailure] = useState(takeNotice);
  const errors = checked ? validateLogin(form) : {};

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    setFailure('');
    if (Object.keys(validateLogin(form)).length) return;
    setBusy(true);
    try {
      const r = await requestGoform('chklogin', { username: form.username.trim(), password: form.password });
      if (r.retvalue === 0 && r.token) {
        const funs = Array.isArray(r.funs) ? r.funs : [];
        signIn(r.token, r.name || form.username.trim(), funs);
        const wanted = safeRedirect(new URLSearchParams(search).get('redirect'));
        // A terminal in its factory state: choose the administrator password first (it goes on to the same redirect).
        navigate(r.activate ? '/activate?' + search : (wanted ?? homePath(funs)), { replace: true });
        return;
      }
      setFailure(messageFor(r.retvalue, r.msg));
    } catch (err) {
      // The request layer has shown the message as a toast too; keep it by the form.
      setFailure((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const set = (k: keyof LoginForm) => (v: string) => setForm({ ...form, [k]: v });
  return (
    <div className="login-page">
      <main className="login-card">
        {brand.logo && <img className="login-logo" src={brand.logo} alt={brand.title} />}
        <h1>{i18n._('login.title')}</h1>
        <form onSubmit={submit} noValidate aria-describedby={failure ? 'login-failure' : undefined}>
          <Field
            label={i18n._('login.username')}
            value={form.username}
            error={errors.username && i18n._(errors.username)}
            onValue={set('username')}
            autoComplete="username"
            autoCapitalize="none"
            maxLength={32}
          />
          <Field
            label={i18n._('login.password')}
            type="password"
            value={form.password}
            error={errors.password && i18n._(errors.password)}
            onValue={set('password')}
            autoComplete="current-password"
            maxLength={32}
          />
          {failure && (
            <p className="form-error" id="login-failure" role="alert">
              {failure}
            </p>
          )}
          <button type="submit" className="button primary wide" disabled={busy} aria-busy={busy}>
            {busy ? i18n._('login.signingIn') : i18n._('login.submit')}
          </button>
        </form>
      </main>
      <footer className="copyright">{brand.copyright}</footer>
    </div>
  );
}
