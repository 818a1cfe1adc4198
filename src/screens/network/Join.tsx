// Joining a Wi-Fi network (choose Wi-Fi, and the add Wi-Fi screen): name and security when
// typed by hand, password and identity as the security needs, the SPEC §4
// warnings, and the way back to the Wi-Fi page, which shows AP mode when the
// join failed ("Connection failed, switch back to AP mode").
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { i18n } from '@lingui/core';
import { rulesOf } from '../../api/rules.ts';
import { requestGoform, type GoformError } from '../../api/request.ts';
import { JOIN_FAILED } from '../../../contract/codes.ts';
import { MSG_SUCCESS, messageFor } from '../../api/errors.ts';
import { notify } from '../../ui/toast.ts';
import { confirmAction } from '../../ui/confirm.tsx';
import { Control } from '../../form/Control.tsx';
import { bindFields, checkForm, payload, visible, type Value, type Values } from '../../form/validation.ts';
import { CONFIRM_SAVE, offerLogin, SECURITY } from './forms.tsx';

const contract = rulesOf('GetChooseWirless');
const FIELDS = bindFields(
  [
    { name: 'Ssid', kind: 'text', label: /*i18n*/ 'net.ssid', required: true },
    { name: 'Security', kind: 'select', label: /*i18n*/ 'route.securityOne', options: SECURITY },
    { name: 'Password', kind: 'password', label: /*i18n*/ 'login.password', dependsOn: { Security: [1, 2] }, required: true },
    { name: 'Identity', kind: 'text', label: /*i18n*/ 'net.identity', dependsOn: { Security: [2] }, required: true },
  ],
  contract,
);

/** `ssid` and `security` come from a scan; without them they are typed. */
export function JoinForm({ ssid, security = 1 }: { ssid?: string; security?: number }) {
  const [values, setValues] = useState<Values>({ Ssid: ssid ?? '', Security: security, Password: '', Identity: '' });
  const [tried, setTried] = useState<Record<string, boolean>>({});
  const [serverError, setServerError] = useState<{ field: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();
  const problems = checkForm(FIELDS, values);
  const set = (name: string) => (v: Value) => {
    setValues((x) => ({ ...x, [name]: v }));
    setTried((x) => ({ ...x, [name]: true }));
    setServerError(null);
  };
  const error = (name: string) => (serverError?.field === name ? serverError.text : tried[name] && problems[name] ? i18n._(problems[name].id, problems[name].values) : undefined);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (Object.keys(problems).length) return setTried({ Ssid: true, Password: true, Identity: true });
    if (!(await confirmAction(i18n._(CONFIRM_SAVE)))) return;
    setBusy(true);
    try {
      const r = await requestGoform('GetChooseWirless', payload(FIELDS, values, contract) as never);
      if (r.retvalue !== 0) {
        const text = messageFor(r.retvalue, r.msg);
        return r.field ? setServerError({ field: r.field, text }) : notify('error', text);
      }
      notify('success', i18n._(MSG_SUCCESS));
      if (await offerLogin()) return;
      navigate('/network/wirless');
    } catch (err) {
      if ((err as GoformError).code === JOIN_FAILED) navigate('/network/wirless');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="settings" noValidate onSubmit={submit}>
      {ssid !== undefined && <h2>{i18n._('net.joinTitle', { ssid })}</h2>}
      {FIELDS.filter((f) => visible(f, values) && (ssid === undefined || f.name === 'Password' || f.name === 'Identity')).map((f) => (
        <Control key={f.name} f={f} value={values[f.name]} error={error(f.name)} onValue={set(f.name)} />
      ))}
      <div className="actions">
        <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
          {i18n._('net.connect')}
        </button>
      </div>
    </form>
  );
}

/** Add Wi-Fi (SPEC §2): join a network typed by hand (e.g. one that does not broadcast its name). */
export const AddWifi = () => (
  <section className="panel">
    <JoinForm />
  </section>
);
