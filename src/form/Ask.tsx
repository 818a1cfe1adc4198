// One field and a button: which user to open, a command code, a password.
// The field is checked by its call's contract rules (or as given); `run`
// sends it and answers the text to show under the form, or rejects with the
// message to say at the field (any other rejection has been said already).
// What was typed stays.
import { useMemo, useState, type ReactNode } from 'react';
import { i18n } from '@lingui/core';
import type { ShippedCall } from '../api/shipped.ts';
import { rulesOf } from '../api/rules.ts';
import { messageFor } from '../api/errors.ts';
import { Control } from './Control.tsx';
import { bindFields, checkField, type BoundField, type FieldDef, type Value } from './validation.ts';
import { say } from './SettingsForm.tsx';

/** For `run`: a reply that failed becomes the message to say at the field. */
export const atField = (r: { retvalue: unknown; msg?: string }) => {
  if (r.retvalue) throw messageFor(r.retvalue as number, r.msg);
};

export function Ask({ call, f, button, run, children }: { call?: ShippedCall; f: FieldDef; button: string; run: (v: Value) => Promise<string | void>; children?: ReactNode }) {
  const b = useMemo<BoundField>(() => (call ? bindFields([f], rulesOf(call))[0] : f), []);
  const [v, setV] = useState<Value>('');
  const [error, setError] = useState<string>();
  const [out, setOut] = useState('');
  return (
    <form
      className="panel settings"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const problem = say(checkField(b, { [f.name]: v }) ?? undefined);
        setError(problem);
        if (!problem) run(v).then((t) => setOut(t || ''), (m) => setError(typeof m == 'string' ? m : undefined));
      }}
    >
      {children}
      <Control f={b} value={v} error={error} onValue={(x) => (setV(x), setError(undefined))} />
      <div className="actions">
        <button type="submit" className="button primary">
          {i18n._(button)}
        </button>
      </div>
      {out && <pre role="status">{out}</pre>}
    </form>
  );
}
