// Wiegand pairing (SPEC §2, §4): choose route 1 or 2 and pair. GET
// AnvizWiegandMatch answers "wait" while the terminal listens for a reader;
// the screen asks again every half second and says "Wigan Pairing
// Waiting..." meanwhile. The paired reader joins the Wiegand authorization
// list on the authorization mode screen.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { i18n } from '@lingui/core';
import { requestGoform } from '../../api/request.ts';
import { POLL_MS, untilDone } from '../../api/poll.ts';
import { MSG_SUCCESS, messageFor } from '../../api/errors.ts';
import type { Reply } from '../../../contract/index.ts';
import { notify } from '../../ui/toast.ts';

const ROUTES = [/*i18n*/ 'basic.route1', /*i18n*/ 'basic.route2'];

export function WiganPairing() {
  const [route, setRoute] = useState<1 | 2>(1);
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<Reply<'AnvizWiegandMatch'> | null>(null);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);

  const pair = async () => {
    setBusy(true);
    setFound(null);
    try {
      // The terminal listens until a reader answers: no limit on the tries, only on this screen being open.
      const r = await untilDone(() => requestGoform('AnvizWiegandMatch', { Route: route }), () => mounted.current, POLL_MS, Infinity);
      if (r?.retvalue === 0) {
        setFound(r);
        notify('success', i18n._(MSG_SUCCESS));
      } else if (r) notify('error', messageFor(r.retvalue, r.msg));
    } catch {
      // Already told by the request layer.
    }
    if (mounted.current) setBusy(false);
  };

  return (
    <section className="panel settings">
      <fieldset className="field">
        <legend>{i18n._('basic.route')}</legend>
        <div className="choices inline">
          {ROUTES.map((label, i) => (
            <label key={label}>
              <input type="radio" name="route" checked={route === i + 1} disabled={busy} onChange={() => setRoute(i === 0 ? 1 : 2)} />
              {i18n._(label)}
            </label>
          ))}
        </div>
      </fieldset>
      <p role="status">
        {busy
          ? i18n._('basic.pairing')
          : found && i18n._('basic.paired', { model: found.Model ?? '', mac: found.Mac ?? '', no: found.MachineNo ?? '' })}
      </p>
      <div className="actions">
        <button type="button" className="button primary" disabled={busy} aria-busy={busy} onClick={pair}>
          {i18n._('basic.pair')}
        </button>
        <Link className="button" href="/basicSetting/authorizationMode">
          {i18n._('route.authorizationMode')}
        </Link>
      </div>
    </section>
  );
}
