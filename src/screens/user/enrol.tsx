// Enrolment on the terminal (SPEC §4): the administrator starts it here, the
// person presents a face or finger at the terminal, and the console shows
// "Face/Finger Enrolling Waiting..." with the 30 s countdown while
// getOnlineEnrollStatus answers "wait". It ends in success, failure, timeout
// (the device's, or the countdown reaching 0, when the console cancels it on
// the device) or cancel by the administrator, and says which.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { i18n } from '@lingui/core';
import type { Envelope, ResponseOf } from '../../../contract/index.ts';
import { requestGoform } from '../../api/request.ts';
import { POLL_MS, untilDone } from '../../api/poll.ts';
import { ENROLL_FAILED, ENROLL_TIMEOUT } from '../../../contract/codes.ts';
import { Waiting } from '../../ui/Countdown.tsx';
import { Failed, Loading } from '../../ui/Status.tsx';

export type UserInfo = ResponseOf<'GetUserInfo'>;

/** Said by the device as a reply's msg (docs/API.md, codes this contract adds); listed so the catalogue keeps it. */
void [/*i18n*/ 'msg.enrollBusy'];

/** The user's fields and what is enrolled; `reload` after a change. */
export function useUser(id: string) {
  const [user, setUser] = useState<UserInfo | string | null>(null);
  const reload = () =>
    requestGoform('GetUserInfo', { UserID: id }).then(
      (r) => setUser(r as UserInfo),
      (e: Error) => setUser(e.message),
    );
  useEffect(() => void reload(), [id]);
  return [user, reload] as const;
}

/** Loading, failed, or the screen with the user. */
export function WithUser({ user, retry, children }: { user: UserInfo | string | null; retry: () => void; children: (u: UserInfo) => ReactNode }) {
  if (user === null) return <Loading />;
  if (typeof user === 'string') return <Failed message={user} retry={retry} />;
  return (
    <section className="panel settings">
      <h2>
        {user.UserID} {user.UserName}
      </h2>
      {children(user)}
    </section>
  );
}

export function useEnrol(id: string, type: 0 | 1, done: () => void) {
  const [waiting, setWaiting] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const live = useRef(false);
  const stopOnDevice = () => requestGoform('getOnlineEnrollStatus', { UserID: id, Type: type, Cancel: 1 }).catch(() => undefined);
  // Leaving the screen mid-enrolment stops it on the device.
  useEffect(() => () => void (live.current && stopOnDevice()), []);

  const finish = (msg: string) => {
    live.current = false;
    setWaiting(false);
    setSaid(msg);
    done();
  };
  const start = async (begin: () => Promise<Envelope>) => {
    setSaid(null);
    try {
      await begin();
    } catch {
      return; // Already said (busy, capacity).
    }
    live.current = true;
    setWaiting(true);
    const ask = () => requestGoform('getOnlineEnrollStatus', { UserID: id, Type: type }, { expect: [ENROLL_FAILED, ENROLL_TIMEOUT] });
    const r = await untilDone(ask, () => live.current, POLL_MS, Infinity).catch(() => null);
    if (!live.current) return; // cancelled, or the countdown ran out
    const code = r?.retvalue;
    finish(code === 0 ? /*i18n*/ 'user.enrolled' : code === ENROLL_TIMEOUT ? /*i18n*/ 'msg.enrollTimeout' : code === ENROLL_FAILED ? /*i18n*/ 'msg.enrollFailed' : /*i18n*/ 'msg.failed');
  };
  const stop = (msg: string) => {
    if (!live.current) return;
    void stopOnDevice();
    finish(msg);
  };
  return { waiting, said, start, cancel: () => stop(/*i18n*/ 'user.cancelled'), timeout: () => stop(/*i18n*/ 'msg.enrollTimeout') };
}

/** The waiting indicator while enrolling, then what came of it. */
export function EnrolState({ e, text }: { e: ReturnType<typeof useEnrol>; text: string }) {
  if (e.waiting) return <Waiting text={i18n._(text)} onZero={e.timeout} onCancel={e.cancel} />;
  return <p role="status">{e.said && i18n._(e.said)}</p>;
}
