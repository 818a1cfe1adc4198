// The door (issue 35; docs/API.md, "The door"): its state, read again at each
// of its live events (src/form/live.ts), and the four actions. Remain open
// and remain closed ask first and say what they override; while one holds,
// the screen says so above Back to normal. Open now counts the relay's
// seconds down, then reads the door again: closed.
import { useEffect, useState } from 'react';
import { i18n } from '@lingui/core';
import { requestGoform } from '../../api/request.ts';
import { $door, MODES, readDoor } from '../../api/door.ts';
import { HEARING, useLive } from '../../form/live.ts';
import { confirmAction } from '../../ui/confirm.tsx';
import { Failed, Loading } from '../../ui/Status.tsx';
import { useStore } from '../../state/use-store.ts';
import { num } from '../../i18n/format.ts';
import { InfoList } from '../basic/info.tsx';

/** The door's event kinds (contract/events.ts): opened, forced, an alarm, closed, the four actions. */
const KINDS = [3, 4, 5, 6, 7, 8, 9, 10];
const SENSOR = [/*i18n*/ 'acc.none', /*i18n*/ 'door.closed', /*i18n*/ 'door.open', /*i18n*/ 'door.fault'];
const PERIOD = ['', /*i18n*/ 'route.alwaysOpen', /*i18n*/ 'route.alwaysClose'];
/** The buttons, in order: [Action, label]; Action 0 to 2 sets the mode of its number, 3 opens now. */
const ACTIONS: [0 | 1 | 2 | 3, string][] = [
  [3, /*i18n*/ 'door.openNow'],
  [1, MODES[1]],
  [2, MODES[2]],
  [0, /*i18n*/ 'door.normal'],
];
/** What remain open (1) and remain closed (2) do, asked before they are set. */
const ASK = ['', /*i18n*/ 'door.keepsOpen', /*i18n*/ 'door.keepsClosed'];

export default function Door() {
  const s = useStore($door);
  const [failed, setFailed] = useState('');
  const { hearing, again } = useLive(KINDS, () => readDoor().then(setFailed));
  const [left, setLeft] = useState(0);
  // Open now: the seconds the relay has left, down by one each second; at 0 the door is read again.
  useEffect(() => {
    let n = s?.Left ?? 0;
    setLeft(n);
    if (!n) return;
    const t = setInterval(() => {
      setLeft(--n);
      if (!n) clearInterval(t), again();
    }, 1000);
    return () => clearInterval(t);
  }, [s]);

  if (!s) return failed ? <Failed message={failed} retry={again} /> : <Loading />;
  const act = async (a: 0 | 1 | 2 | 3) => {
    if (ASK[a] && !(await confirmAction(`${i18n._(ASK[a])} ${i18n._('door.overrides')}`))) return;
    if ((await requestGoform('GetDoorAction', { Action: a }).catch(() => null))?.retvalue === 0) again();
  };
  const alarms = [s.HeldOpen && i18n._('door.heldOpen'), s.Forced && i18n._('live.k4')].filter(Boolean).join(', ');
  return (
    <section className="panel">
      <p role="status" className={hearing ? '' : 'bad'}>
        {hearing < 0 ? '' : i18n._(HEARING[hearing])}
      </p>
      <InfoList
        rows={[
          ['maint.mode', i18n._(MODES[s.Mode]) + (!s.Mode && s.Period ? ` (${i18n._(PERIOD[s.Period])})` : '')],
          [/*i18n*/ 'door.lock', s.Relay ? `${i18n._(/*i18n*/ 'door.unlocked')}${left ? ` ${num(left)} ${i18n._('basic.sec')}` : ''}` : i18n._(/*i18n*/ 'door.locked')],
          ['acc.doorSensor', i18n._(SENSOR[s.Sensor])],
          // An alarm stands out by a sign and its words, not by colour alone.
          ['live.k5', alarms ? `⚠ ${alarms}` : i18n._('acc.none')],
          [/*i18n*/ 'door.since', s.Since],
        ]}
      />
      {!s.Lock && <p role="alert">{i18n._('msg.doorNotLock')}</p>}
      {s.Mode > 0 && <p className="bad">{i18n._(/*i18n*/ 'door.overrides')}</p>}
      <div className="actions">
        {ACTIONS.map(([a, label]) => (
          <button key={a} type="button" className={a == 3 ? 'button primary' : 'button'} disabled={!s.Lock || a == s.Mode} onClick={() => act(a)}>
            {i18n._(label)}
          </button>
        ))}
      </div>
    </section>
  );
}
