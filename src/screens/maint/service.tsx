// The hidden service routes (SPEC §2): /snkey, /up, /test, /cmd. They sit
// outside the layout, and ship in its file (loaded on demand, never on the
// login page). The route guard lets only /test open without a session.
import { useEffect, useState, type ComponentType } from 'react';
import { useLocation } from 'wouter';
import { i18n } from '@lingui/core';
import type { FlatRoute } from '../../routing/routes.ts';
import { requestGoform } from '../../api/request.ts';
import { requestFile } from '../../api/file.ts';
import { Ask, atField } from '../../form/Ask.tsx';
import { SettingsForm } from '../../form/SettingsForm.tsx';
import { opts } from '../../form/validation.ts';
import { ConfirmHost } from '../../ui/confirm.tsx';
import { Upgrade } from './device.tsx';
import { UNKNOWN_COMMAND } from '../../../contract/codes.ts';
import { $session } from '../../state/session.ts';

// Device messages these screens show by the `msg` the device answers: marked for the catalogue, dropped from the code.
void [/*i18n*/ 'msg.badCommand', /*i18n*/ 'msg.fwChecksum', /*i18n*/ 'msg.fwNotNewer', /*i18n*/ 'msg.fwUnsigned', /*i18n*/ 'msg.fwBadSignature', /*i18n*/ 'msg.fwUnknownKey'];

function Up() {
  const [open, setOpen] = useState(false);
  return open ? (
    <Upgrade />
  ) : (
    <Ask
      call="SetWebUpgradeMode"
      f={{ name: 'Password', kind: 'password', label: /*i18n*/ 'maint.upPassword' }}
      button={/*i18n*/ 'action.ok'}
      run={(Password) =>
        requestGoform('SetWebUpgradeMode', { Password: String(Password) }, { expect: [40302] }).then((r) => {
          atField(r);
          setOpen(true);
        })
      }
    />
  );
}

const Cmd = () => (
  <Ask
    call="ExecuteCommand"
    f={{ name: 'Code', kind: 'number', label: /*i18n*/ 'maint.code' }}
    button={/*i18n*/ 'maint.run'}
    run={(Code) =>
      requestGoform('ExecuteCommand', { Code: Number(Code) }, { expect: [UNKNOWN_COMMAND] }).then((r) => {
        atField(r);
        return r.Output ?? '';
      })
    }
  />
);

/**
 * /test opens without a session, but only a terminal in its factory state
 * answers it so (docs/API.md, "Activation"). Without a session it asks the
 * device first: once activated, that is 10002, and the visitor signs in and
 * comes back here (a forced logout would reload /test and ask again).
 */
function Test() {
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(!!$session.get());
  useEffect(() => {
    if (!open)
      requestGoform('SetDebugParam', {}, { expect: [10002] }).then(
        (r) => (r.retvalue === 10002 ? navigate('/login?redirect=%2Ftest', { replace: true }) : setOpen(true)),
        () => undefined,
      );
  }, []);
  return open ? <TestScreen /> : null;
}

function TestScreen() {
  const [src, setSrc] = useState('');
  return (
    <>
      <button type="button" className="button primary" onClick={() => requestFile('test_takephoto').then((b) => setSrc(URL.createObjectURL(b)), () => undefined)}>
        {i18n._('maint.photo')}
      </button>
      {src && <img className="shot" src={src} alt={i18n._('maint.photo')} />}
      <SettingsForm
        def={{ read: 'SetDebugParam', write: 'GetDebugParam', fields: [{ name: 'Mode', kind: 'radio', label: /*i18n*/ 'maint.mode', options: opts(/*i18n*/ 'basic.fp0', /*i18n*/ 'maint.mode1', /*i18n*/ 'maint.mode2') }] }}
      />
    </>
  );
}

const SnKey = () => (
  <SettingsForm
    def={{
      read: 'SetSNKeyParam',
      write: 'GetSNKeyParam',
      fields: [/*i18n*/ 'maint.key1', /*i18n*/ 'maint.key2', /*i18n*/ 'maint.key3', /*i18n*/ 'maint.key4', /*i18n*/ 'maint.key5'].map((label, i) => ({ name: `Key${i + 1}`, kind: 'text', label })),
    }}
  />
);

const SERVICE: Record<string, ComponentType> = { '/snkey': SnKey, '/up': Up, '/test': Test, '/cmd': Cmd };

/** A service route's page: its title and its screen. */
export function Service({ route }: { route: FlatRoute }) {
  const S = SERVICE[route.path];
  return (
    <main className="standalone service">
      <h1>{i18n._(route.title)}</h1>
      <S />
      <ConfirmHost />
    </main>
  );
}
