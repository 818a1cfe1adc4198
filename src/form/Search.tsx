// A search above a paged list (users, records, the report): its fields take
// the list call's own rules, Search checks them and hands the query on,
// Clear goes back to `blank`. What was typed stays when a check fails.
import { useMemo, useState, type ReactNode } from 'react';
import { i18n } from '@lingui/core';
import type { ShippedCall } from '../api/shipped.ts';
import { rulesOf } from '../api/rules.ts';
import { Control } from './Control.tsx';
import { bindFields, checkForm, type FieldDef, type Values } from './validation.ts';
import { say } from './SettingsForm.tsx';

export function Search({ call, fields, blank, onQuery, children }: { call: ShippedCall; fields: readonly FieldDef[]; blank: Values; onQuery: (q: Values) => void; children?: ReactNode }) {
  const bound = useMemo(() => bindFields(fields, rulesOf(call)), []);
  const [typed, setTyped] = useState(blank);
  const [shown, setShown] = useState(false);
  const problems = checkForm(bound, typed);
  return (
    <form
      className="search"
      role="search"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setShown(true);
        if (!Object.keys(problems).length) onQuery(typed);
      }}
    >
      {bound.map((f) => (
        <Control key={f.name} f={f} value={typed[f.name]} error={shown ? say(problems[f.name]) : undefined} onValue={(v) => setTyped((t) => ({ ...t, [f.name]: v }))} />
      ))}
      <div className="actions">
        <button type="submit" className="button primary">
          {i18n._('net.search')}
        </button>
        <button type="button" className="button" onClick={() => (setTyped(blank), onQuery(blank), setShown(false))}>
          {i18n._('user.clear')}
        </button>
        {children}
      </div>
    </form>
  );
}
