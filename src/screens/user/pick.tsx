// /user/identify, /user/fingerprint and /user/userEdit work on the user named
// by ?UserID=. Opened without one (from the sidebar), they first ask which
// user, and check that the device has that user.
import type { ComponentType } from 'react';
import { useLocation, useSearch } from 'wouter';
import { i18n } from '@lingui/core';
import { requestGoform } from '../../api/request.ts';
import { Ask, atField } from '../../form/Ask.tsx';

export const useUserId = () => new URLSearchParams(useSearch()).get('UserID');

function PickUser() {
  const [location, navigate] = useLocation();
  return (
    <Ask
      // The device checks the ID (40401 for a malformed one or no such user).
      f={{ name: 'UserID', kind: 'text', label: /*i18n*/ 'user.id', requiredMsg: /*i18n*/ 'user.needId' }}
      button={/*i18n*/ 'user.open'}
      run={(id) =>
        requestGoform('GetUserInfo', { UserID: String(id) }, { expect: [40401] }).then((r) => {
          atField(r);
          navigate(`${location}?UserID=${id}`);
        })
      }
    >
      <p>{i18n._('user.which')}</p>
    </Ask>
  );
}

/** The screen for the user in the query, or the question which user. */
export function forUser(Screen: ComponentType<{ id: string }>) {
  return function ForUser() {
    const id = useUserId();
    return id ? <Screen key={id} id={id} /> : <PickUser />;
  };
}
