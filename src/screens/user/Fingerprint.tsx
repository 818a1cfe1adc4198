// /user/fingerprint: the user's ten fingers (SPEC §3) on a drawing of two
// hands. Enrolled fingers are marked; a chosen finger is enrolled on the
// terminal through regfp with "Finger Enrolling Waiting..." and the
// countdown, or deleted after "Are you Sure?".
import { useState } from 'react';
import { i18n } from '@lingui/core';
import { requestGoform } from '../../api/request.ts';
import { removeAsked } from '../../form/RecordList.tsx';
import { EnrolState, WithUser, useEnrol, useUser, type UserInfo } from './enrol.tsx';
import { FINGER_NAMES, Hands } from './Hands.tsx';
import { forUser } from './pick.tsx';

function Fingers({ u, reload }: { u: UserInfo; reload: () => void }) {
  const [finger, setFinger] = useState(6);
  const e = useEnrol(u.UserID, 1, reload);
  const on = (u.FPMask >> finger) & 1;
  const remove = () => removeAsked(1, '', () => requestGoform('getOnlineEnrollStatus', { UserID: u.UserID, Type: 1, Finger: finger, Delete: 1 }), reload);
  return (
    <>
      <Hands enrolled={u.FPMask} picked={finger} onPick={setFinger} />
      <p>
        {i18n._(FINGER_NAMES[finger])}: {i18n._(on ? /*i18n*/ 'user.enrolledOne' : /*i18n*/ 'user.notEnrolled')}
      </p>
      <EnrolState e={e} text={/*i18n*/ 'user.fingerWaiting'} />
      <div className="actions">
        <button type="button" className="button primary" disabled={e.waiting} onClick={() => e.start(() => requestGoform('regfp', { UserID: u.UserID, Finger: finger }))}>
          {i18n._('user.enrolFinger')}
        </button>
        {!!on && (
          <button type="button" className="button" disabled={e.waiting} onClick={remove}>
            {i18n._('user.deleteFinger')}
          </button>
        )}
      </div>
    </>
  );
}

export const Fingerprint = forUser(({ id }) => {
  const [user, reload] = useUser(id);
  return <WithUser user={user} retry={reload}>{(u) => <Fingers u={u} reload={reload} />}</WithUser>;
});
