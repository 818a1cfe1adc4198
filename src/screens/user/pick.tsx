// /user/identify, /user/fingerprint and /user/userEdit work on the user named
// by ?UserID=. Opened without one (from the sidebar), they first ask which
// user, and check that the device has that user.
import { useState, type ComponentType } from 'react';
import { useLocation, useSearch } from 'wouter';
import { i18n } from '@lingui/core';
import { requestGoform } from '../../api/request.ts';
import { messageFor } from '../../api/errors.ts';
import { Control } from '../../form/Control.tsx';
import { checkField, type BoundField } from '../../form/rules.ts';
import { say } from '../../form/SettingsForm.tsx';

export const useUserId = () => new URLSearchParams(useSearch()).get('UserID');

function PickUser() {
  const [location, navigate] = useLocation();
  // The device checks the ID (40401 for a malformed one or no such user).
  const f: BoundField = { name: 'UserID', kind: 'text', label: /*i18n*/ 'user.id', requiredMsg: /*i18n*/ 'user.needId' };
  const [id, setId] = useState('');
  const [error, setError] = useState<string>();
  const open = async () => {
    const p = checkField(f, { UserID: id });
    if (p) return setError(say(p));
    try {
      const r = await requestGoform('GetUserInfo', { UserID: id }, { expect: [40401] });
      if (r.retvalue === 0) navigate(`${location}?UserID=${id}`);
      else setError(messageFor(r.retvalue, r.msg));
    } catch {
      // Already said.
    }
  };
  return (
    <form
      class="panel settings"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void open();
      }}
    >
      <p>{i18n._('user.which')}</p>
      <Control f={f} value={id} error={error} onValue={(v) => (setId(String(v)), setError(undefined))} />
      <div class="actions">
        <button type="submit" class="button primary">
          {i18n._('user.open')}
        </button>
      </div>
    </form>
  );
}

/** The screen for the user in the query, or the question which user. */
export function forUser(Screen: ComponentType<{ id: string }>) {
  return function ForUser() {
    const id = useUserId();
    return id ? <Screen key={id} id={id} /> : <PickUser />;
  };
}
