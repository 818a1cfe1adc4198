// Live events (issue 25 §2): what happens at the door as it happens, newest
// first, the last LIVE_ROWS of them. The stream is open only while this
// screen is (src/api/live.ts); a drop and the way back show in the status
// line. Pause holds the list still; what comes meanwhile is kept and shown
// on resume.
import { useEffect, useRef, useState } from 'react';
import { i18n } from '@lingui/core';
import { follow, type Hearing, type LiveEvent } from '../../api/live.ts';
import { Table } from '../../ui/Table.tsx';
import { when } from '../../i18n/format.ts';
import { HEARING } from '../../form/live.ts';

export const LIVE_ROWS = 100;

/** Kind n's name: live.k1 ... live.k6, then an administrator's actions on the door, named as the Door screen's buttons. */
const KINDS = ['', /*i18n*/ 'live.k1', /*i18n*/ 'live.k2', /*i18n*/ 'live.k3', /*i18n*/ 'live.k4', /*i18n*/ 'live.k5', /*i18n*/ 'live.k6', /*i18n*/ 'door.openNow', /*i18n*/ 'door.remainOpen', /*i18n*/ 'door.remainClosed', /*i18n*/ 'door.normal'];
const MODES = ['', /*i18n*/ 'basic.im1', /*i18n*/ 'basic.im2', /*i18n*/ 'basic.im3', /*i18n*/ 'basic.im4', /*i18n*/ 'basic.im5', /*i18n*/ 'basic.im6'];

export function LiveEvents() {
  const kept = useRef<LiveEvent[]>([]);
  const held = useRef(false);
  const [rows, setRows] = useState<LiveEvent[]>([]);
  const [paused, setPaused] = useState(false);
  const [waiting, setWaiting] = useState(0);
  const [hearing, setHearing] = useState<Hearing | -1>(-1);
  useEffect(
    () =>
      follow((e) => {
        kept.current = [e, ...kept.current].slice(0, LIVE_ROWS);
        if (held.current) setWaiting((n) => n + 1);
        else setRows(kept.current);
      }, setHearing),
    [],
  );
  const toggle = () => {
    held.current = !paused;
    setPaused(!paused);
    setRows(kept.current);
    setWaiting(0);
  };
  return (
    <section className="panel">
      <div className="actions">
        <button type="button" className="button" aria-pressed={paused} onClick={toggle}>
          {i18n._(/*i18n*/ 'live.pause')}
        </button>
        <p role="status" className={hearing ? '' : 'bad'}>
          {hearing < 0 ? '' : i18n._(HEARING[hearing])}
          {paused && ` ${i18n._(/*i18n*/ 'live.held', { n: waiting })}`}
        </p>
      </div>
      <Table<LiveEvent>
        rows={rows}
        rowKey={(e) => `${e.Id} ${e.Time}`}
        label={i18n._('route.liveEvents')}
        empty={i18n._(/*i18n*/ 'live.none')}
        cols={[
          { head: i18n._('rec.time'), cell: (e) => when(e.Time) },
          // Forced and alarm stand out by a sign and a word, not by colour alone.
          { head: i18n._(/*i18n*/ 'live.event'), cell: (e) => (e.Kind == 4 || e.Kind == 5 ? <b className="bad">⚠ {i18n._(KINDS[e.Kind])}</b> : i18n._(KINDS[e.Kind] ?? '')) },
          { head: i18n._('user.id'), cell: (e) => e.UserID },
          { head: i18n._('user.name'), cell: (e) => e.UserName },
          { head: i18n._('route.identifyMode'), cell: (e) => (MODES[e.Mode] ? i18n._(MODES[e.Mode]) : '') },
        ]}
      />
    </section>
  );
}
