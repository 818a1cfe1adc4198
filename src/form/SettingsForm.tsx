// The settings form engine: a screen is data (FormDef); this reads it with
// the GET Set* call, renders it, validates as the user types, keeps Save
// disabled while nothing changed, sends the form with the POST Get* call,
// and says "Success" or the SPEC §8 message. A failed save keeps what was typed.
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { i18n } from '@lingui/core';
import type { CallName } from '../api/contract.ts';
import { rulesOf } from '../api/rules.ts';
import { requestGoform } from '../api/request.ts';
import { MESSAGES, messageFor } from '../api/errors.ts';
import { notify } from '../ui/toast.ts';
import { confirmAction } from '../ui/confirm.tsx';
import { bindFields, changed, checkForm, payload, visible, type BoundField, type FieldDef, type Problem, type Value, type Values } from './rules.ts';
import { $unsaved, guardUnload } from './unsaved.ts';

export interface FormDef {
  /** GET Set<Name>: reads the values. */
  read: CallName;
  /** POST Get<Name>: writes them. */
  write: CallName;
  fields: readonly FieldDef[];
  /** Asked before saving (SPEC §4): a message id, or a function of what changed. */
  confirm?: string | ((changedNames: string[], values: Values) => string | null);
  /** After a successful save (e.g. offer the jump to the login page). */
  afterSave?: (changedNames: string[], values: Values) => void | Promise<void>;
}

type State =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; initial: Values; values: Values };

function text(p: Problem | undefined): string | undefined {
  return p && i18n._(p.id, p.values);
}

function toValues(reply: Record<string, unknown>, fields: readonly FieldDef[]): Values {
  const v: Values = {};
  for (const f of fields) {
    const x = reply[f.name];
    v[f.name] = typeof x === 'number' || typeof x === 'string' ? x : '';
  }
  return v;
}

export function useSettings(def: FormDef) {
  const contract = rulesOf(def.write);
  const fields = useMemo(() => bindFields(def.fields, contract), [def]);
  const [state, setState] = useState<State>({ status: 'loading' });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [touched, setTouched] = useState<Record<string, boolean>>({});

  const load = async () => {
    setState({ status: 'loading' });
    try {
      const r = await requestGoform(def.read);
      if (r.retvalue !== 0) return setState({ status: 'failed', message: messageFor(r.retvalue, r.msg) });
      const values = toValues(r as unknown as Record<string, unknown>, def.fields);
      setState({ status: 'ready', initial: values, values });
    } catch (e) {
      setState({ status: 'failed', message: (e as Error).message });
    }
  };
  useEffect(() => {
    guardUnload();
    void load();
    return () => $unsaved.set(false);
  }, [def]);

  const ready = state.status === 'ready' ? state : null;
  const problems = ready ? checkForm(fields, ready.values) : {};
  const dirty = ready ? changed(fields, ready.initial, ready.values) : [];
  useEffect(() => $unsaved.set(dirty.length > 0), [dirty.length]);

  const set = (name: string, value: Value) => {
    if (!ready) return;
    setState({ ...ready, values: { ...ready.values, [name]: value } });
    setTouched((t) => ({ ...t, [name]: true }));
    if (serverErrors[name]) setServerErrors(({ [name]: _, ...rest }) => rest);
  };

  const save = async () => {
    if (!ready || !dirty.length) return;
    if (Object.keys(problems).length) {
      setTouched(Object.fromEntries(fields.map((f) => [f.name, true])));
      return;
    }
    const ask = typeof def.confirm === 'function' ? def.confirm(dirty, ready.values) : def.confirm;
    if (ask && !(await confirmAction(i18n._(ask)))) return;
    setSaving(true);
    try {
      const r = await requestGoform(def.write, payload(fields, ready.values, contract, ready.initial) as never);
      if (r.retvalue === 0) {
        notify('success', i18n._(MESSAGES.success));
        setState({ status: 'ready', initial: ready.values, values: ready.values });
        $unsaved.set(false);
        await def.afterSave?.(dirty, ready.values);
      } else {
        // 10003 / 10005 name the field; keep everything typed.
        const message = messageFor(r.retvalue, r.msg);
        if (r.field && fields.some((f) => f.name === r.field)) setServerErrors({ [r.field]: message });
        else notify('error', message);
      }
    } catch {
      // Already told by the request layer; the typed values stay.
    } finally {
      setSaving(false);
    }
  };

  const reset = () => {
    if (ready) setState({ ...ready, values: ready.initial });
    setServerErrors({});
    setTouched({});
  };

  return { state, fields, problems, serverErrors, touched, dirty, saving, set, save, reset, reload: load };
}

function Control({ f, value, error, onValue }: { f: BoundField; value: Value; error?: string; onValue: (v: Value) => void }) {
  const id = useId();
  const errorId = `${id}-e`;
  const described = error ? errorId : undefined;
  const label = i18n._(f.label);
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described } as const;
  let control;
  switch (f.kind) {
    case 'select':
      control = (
        <select {...common} value={String(value)} onChange={(e) => onValue(pick(f, (e.currentTarget as HTMLSelectElement).value))}>
          {f.options?.map((o) => (
            <option key={String(o.value)} value={String(o.value)}>
              {i18n._(o.label)}
            </option>
          ))}
        </select>
      );
      break;
    case 'switch':
      control = (
        <input
          {...common}
          type="checkbox"
          role="switch"
          checked={String(value) === '1'}
          onChange={(e) => onValue((e.currentTarget as HTMLInputElement).checked ? 1 : 0)}
        />
      );
      break;
    case 'radio':
      return (
        <fieldset class={error ? 'field invalid' : 'field'} aria-describedby={described}>
          <legend>{label}</legend>
          <div class="choices inline">
            {f.options?.map((o) => (
              <label key={String(o.value)}>
                <input type="radio" name={id} checked={String(o.value) === String(value)} onChange={() => onValue(o.value)} />
                {i18n._(o.label)}
              </label>
            ))}
          </div>
          {error && <p class="field-error" id={errorId}>{error}</p>}
        </fieldset>
      );
    default: {
      const type = f.kind === 'password' ? 'password' : f.kind === 'time' ? 'time' : f.kind === 'date' ? 'date' : 'text';
      const numeric = f.kind === 'number' || f.kind === 'port';
      const attrs = {
        ...common,
        type,
        value: String(value ?? ''),
        inputMode: numeric ? 'numeric' : f.kind === 'ip' || f.kind === 'mask' ? 'decimal' : undefined,
        maxLength: f.maxLength,
        autoComplete: f.kind === 'password' ? 'new-password' : 'off',
      };
      control = <input {...(attrs as object)} onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)} />;
    }
  }
  return (
    <div class={`field${error ? ' invalid' : ''}${f.kind === 'switch' ? ' switch' : ''}`}>
      <label for={id}>{label}</label>
      <div class="control">
        {control}
        {f.unit && <span class="unit">{i18n._(f.unit)}</span>}
      </div>
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** Select options keep their type (numbers stay numbers). */
function pick(f: BoundField, raw: string): Value {
  return f.options?.find((o) => String(o.value) === raw)?.value ?? raw;
}

export function SettingsForm({ def, children }: { def: FormDef; children?: ReactNode }) {
  const form = useSettings(def);
  const { state } = form;
  if (state.status === 'loading') return <p class="loading" aria-busy="true">{i18n._('state.loading')}</p>;
  if (state.status === 'failed')
    return (
      <section class="panel" role="alert">
        <p>{state.message}</p>
        <button type="button" class="button" onClick={form.reload}>
          {i18n._('action.retry')}
        </button>
      </section>
    );
  return (
    <form
      class="panel settings"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void form.save();
      }}
    >
      {form.fields
        .filter((f) => visible(f, state.values))
        .map((f) => (
          <Control
            key={f.name}
            f={f}
            value={state.values[f.name]}
            error={form.serverErrors[f.name] ?? (form.touched[f.name] ? text(form.problems[f.name]) : undefined)}
            onValue={(v) => form.set(f.name, v)}
          />
        ))}
      {children}
      <div class="actions">
        <button type="submit" class="button primary" disabled={!form.dirty.length || form.saving} aria-busy={form.saving}>
          {i18n._('action.save')}
        </button>
        <button type="button" class="button" disabled={!form.dirty.length || form.saving} onClick={form.reset}>
          {i18n._('action.reset')}
        </button>
      </div>
    </form>
  );
}
