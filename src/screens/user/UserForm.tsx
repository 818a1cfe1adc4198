// Add and edit a user (SPEC §2 /user/addUser, /user/userEdit; §3 User; §5):
// every field of a user as a form of the engine. User ID and User Name are
// required with SPEC §5's words; adding an ID that exists asks "The user
// already exists, do you want to add it again?"; 40401-40405 are said at
// their field and what was typed stays. After an add the edit page opens,
// where face, photo and fingers are enrolled.
import { useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import { i18n } from '@lingui/core';
import { SettingsForm, type FormDef } from '../../form/SettingsForm.tsx';
import { opts, type FieldDef, type Problem, type Values } from '../../form/validation.ts';
import { useStore } from '../../state/use-store.ts';
import { $session } from '../../state/session.ts';
import { forUser } from './pick.tsx';

const BLANK: Values = { UserID: '', UserName: '', Password: '', CardNo: '', CardType: 0, Admin: 0, Group: 0, IdentifyMode: 0, Shift: 0, AccessBegin: '', AccessEnd: '' };

function fields(edit: boolean): FieldDef[] {
  const n = (k: number) => Array.from({ length: k }, (_, i) => i + 1);
  return [
    { name: 'UserID', kind: 'text', label: /*i18n*/ 'user.id', requiredMsg: /*i18n*/ 'user.needId', readOnly: edit },
    { name: 'UserName', kind: 'text', label: /*i18n*/ 'user.name', requiredMsg: /*i18n*/ 'user.needName' },
    { name: 'Password', kind: 'password', label: /*i18n*/ 'login.password' },
    { name: 'CardNo', kind: 'text', label: /*i18n*/ 'user.cardNo' },
    { name: 'CardType', kind: 'select', label: /*i18n*/ 'user.cardType', options: opts(/*i18n*/ 'user.cardId', /*i18n*/ 'user.cardIc') },
    { name: 'Admin', kind: 'select', label: /*i18n*/ 'user.admin', options: [{ value: 0, text: `0-${i18n._('user.roleUser')}` }, ...n(16).map((k) => ({ value: k, text: `${k}-${i18n._('user.admin')}` }))] },
    { name: 'Group', kind: 'select', label: /*i18n*/ 'user.group', options: [{ value: 0, text: '0-NC' }, { value: 1, text: '1-NO' }] },
    { name: 'IdentifyMode', kind: 'select', label: /*i18n*/ 'route.identifyMode', options: opts(/*i18n*/ 'user.modeDefault', /*i18n*/ 'basic.im1', /*i18n*/ 'basic.im2', /*i18n*/ 'basic.im3', /*i18n*/ 'basic.im4', /*i18n*/ 'basic.im5', /*i18n*/ 'basic.im6') },
    { name: 'Shift', kind: 'select', label: /*i18n*/ 'user.shift', options: [{ value: 0, label: /*i18n*/ 'user.noShift' }, ...n(8).map((k) => ({ value: k, text: String(k) }))] },
    { name: 'AccessBegin', kind: 'date', label: /*i18n*/ 'user.accessBegin' },
    { name: 'AccessEnd', kind: 'date', label: /*i18n*/ 'user.accessEnd' },
  ];
}

const check = (v: Values): Record<string, Problem> => (v.AccessBegin && v.AccessEnd && v.AccessEnd < v.AccessBegin ? { AccessEnd: { id: /*i18n*/ 'user.endBeforeStart' } } : {});

export function AddUser() {
  const [, navigate] = useLocation();
  const def = useMemo<FormDef>(
    () => ({
      write: 'adduser',
      blank: BLANK,
      fields: fields(false),
      check,
      retry: { code: 40402, ask: /*i18n*/ 'user.exists', with: { Replace: 1 } },
      afterSave: (_, v) => navigate(`/user/userEdit?UserID=${v.UserID}`),
    }),
    [],
  );
  return <SettingsForm def={def} />;
}

export const UserEdit = forUser(({ id }) => {
  const funs = useStore($session)?.funs ?? [];
  const def = useMemo<FormDef>(() => ({ read: 'GetUserInfo', write: 'edituser', params: { UserID: id }, fields: fields(true), check }), [id]);
  return (
    <SettingsForm def={def}>
      <p className="actions">
        {funs.includes('face') && <Link href={`/user/identify?UserID=${id}`}>{i18n._('user.faceAndPhoto')}</Link>}
        {funs.includes('fingerprint') && <Link href={`/user/fingerprint?UserID=${id}`}>{i18n._('route.fingerprint')}</Link>}
      </p>
    </SettingsForm>
  );
});
