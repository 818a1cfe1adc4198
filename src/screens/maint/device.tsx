// Maintenance (SPEC §2 Advanced, §4, §5, §7): firmware upgrade with a
// progress bar, initialization, restart and the initialization card, each
// behind "Are you Sure?". A restart (also after an upgrade or an
// initialization) shows SPEC §4's countdown from 30, then asks the device
// every 2 s until it answers, and opens the login page: the restart ended
// the session.
import { useEffect, useState } from 'react';
import { i18n } from '@lingui/core';
import { requestGoform } from '../../api/request.ts';
import { upload } from '../../api/file.ts';
import { MSG_SUCCESS } from '../../api/errors.ts';
import { clearSession } from '../../state/session.ts';
import { Waiting } from '../../ui/Countdown.tsx';
import { FilePick } from '../../ui/FilePick.tsx';
import { confirmAction } from '../../ui/confirm.tsx';
import { notify } from '../../ui/toast.ts';

/** Seconds between two "are you back?" requests once the countdown is over. */
const POLL_S = 2;

export function Restarting() {
  const [over, setOver] = useState(false);
  useEffect(() => {
    if (!over) return;
    let t: ReturnType<typeof setTimeout>;
    const ask = () =>
      fetch('/', { cache: 'no-store' }).then(
        (r) => {
          if (!r.ok) throw 0;
          clearSession();
          location.assign('/login');
        },
        () => (t = setTimeout(ask, POLL_S * 1e3)),
      );
    ask();
    return () => clearTimeout(t);
  }, [over]);
  return <Waiting text={i18n._('maint.restarting')} onZero={() => setOver(true)} />;
}

/** A button that does one thing to the device, after "Are you Sure?"; `restarts`: the device then restarts. */
const action = (call: () => Promise<{ retvalue: unknown }>, label: string, text?: string, restarts?: boolean) =>
  function Action() {
    const [gone, setGone] = useState(false);
    const run = async () => {
      if (!(await confirmAction())) return;
      const r = await call().catch(() => null);
      if (r?.retvalue !== 0) return;
      if (restarts) setGone(true);
      else notify('success', i18n._(MSG_SUCCESS));
    };
    return (
      <section className="panel">
        {text && <p>{i18n._(text)}</p>}
        {gone ? (
          <Restarting />
        ) : (
          <button type="button" className="button" onClick={run}>
            {i18n._(label)}
          </button>
        )}
      </section>
    );
  };

export const Restart = action(() => requestGoform('RestartMachine'), /*i18n*/ 'route.restart', '', true);
export const Initialization = action(() => requestGoform('InitMachine'), /*i18n*/ 'route.initialization', /*i18n*/ 'maint.initText', true);
export const InitCard = action(() => requestGoform('InitAdminCard'), /*i18n*/ 'route.initCard', /*i18n*/ 'maint.cardText');

const mb = (n: number) => i18n.number(n / 1048576, { maximumFractionDigits: 1 });

/** Choose a package, send it with a progress bar, show the verdict; a good one restarts the device into it. */
export function Upgrade() {
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<number[] | null>(null);
  const [version, setVersion] = useState('');
  const send = () =>
    upload('UpdateMachine', { File: file! }, (a, b) => setSent([a, b])).then(
      (r) => setVersion(r.Version ?? ''),
      () => setSent(null),
    );
  if (version) {
    return (
      <>
        <p role="status">
          {i18n._(MSG_SUCCESS)}: {version}
        </p>
        <Restarting />
      </>
    );
  }
  const pct = sent && Math.round((100 * sent[0]) / (sent[1] || 1));
  return (
    <>
      <FilePick label={i18n._('maint.package')} accept="" onFile={setFile} />
      {sent ? (
        <p className="progress">
          <progress max={100} value={pct!} aria-label={i18n._('route.firmwareUpgrade')} /> {i18n.number(pct! / 100, { style: 'percent' })} · {mb(sent[0])} / {mb(sent[1])} MB
        </p>
      ) : (
        <button type="button" className="button primary" disabled={!file} onClick={send}>
          {i18n._('route.firmwareUpgrade')}
        </button>
      )}
    </>
  );
}

export const FirmwareUpgrade = () => (
  <section className="panel">
    <Upgrade />
  </section>
);
