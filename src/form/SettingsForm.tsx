// The settings form engine: a screen is data (FormDef); this reads it with
// the GET Set* call, renders it, validates as the user types, keeps Save
// disabled while nothing changed, sends the form with the POST Get* call,
// and says "Success" or the SPEC §8 message. A failed save keeps what was
// typed. A numbered record (time group, time zone, shift) is the same form
// with a chooser for the record's number; weekday tables are one field kind.
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { i18n } from '@lingui/core';
import type { ShippedCall } from '../api/shipped.ts';
import { rulesOf } from '../api/rules.ts';
import { readOrFailure, requestGoform, type GoformError } from '../api/request.ts';
import { MSG_SUCCESS, messageFor } from '../api/errors.ts';
import { notify } from '../ui/toast.ts';
import { confirmAction } from '../ui/confirm.tsx';
import { bindFields, changed, checkForm, payload, valueFields, visible, type BoundField, type FieldDef, type Problem, type Value, type Values } from './validation.ts';
import { $unsaved, guardUnload, mayLeave } from './unsaved.ts';
import { Control } from './Control.tsx';
import { Failed, Loading } from '../ui/Status.tsx';

export interface FormDef {
  /** GET Set<Name>: reads the values. Without it the form starts from `blank` (adding a record). */
  read?: ShippedCall;
  /** Values a form without `read` starts from. */
  blank?: Values;
  /** POST Get<Name>: writes them. */
  write: ShippedCall;
  fields: readonly FieldDef[];
  /**
   * A numbered record: a chooser for the number (its range is the write
   * call's constraint on `name`); the read asks `?<name>=n`, the write sends it.
   */
  key?: { name: string; label: string; note?: string };
  /** Sent with the read and with the write (e.g. a list's type). */
  params?: Values;
  /** Checks between fields (e.g. an end not before its start). */
  check?: (v: Values) => Record<string, Problem>;
  /** Asked before saving (SPEC §4): a message id, or a function of what changed. */
  confirm?: string | ((changedNames: string[], values: Values) => string | null);
  /** After a successful save (e.g. offer the jump to the login page). */
  afterSave?: (changedNames: string[], values: Values) => void | Promise<void>;
  /**
   * Codes after which the device's values are read again as the new baseline
   * while what was typed stays (30102: the Wi-Fi join failed and the device
   * is back in AP mode, so Undo shows AP mode).
   */
  refreshOn?: readonly number[];
  /**
   * A code after which the user is asked `ask` and, on yes, the write is sent
   * again with `with` added (40402: the user exists, add it again?).
   */
  retry?: Retry;
  /**
   * Buttons that fill fields without saving (the date and time from this
   * computer's clock): Save sends them, Reset takes them back.
   */
  fill?: readonly Fill[];
}

export interface Fill {
  /** Message id of the button. */
  label: string;
  /** The values to set, from the form's values now. */
  values: (v: Values) => Values;
  /** Shown only while these fields have these values, as a field's dependsOn. */
  dependsOn?: FieldDef['dependsOn'];
}

export interface Retry {
  code: number;
  ask: string;
  with: Values;
}

/** Codes that come back naming a field: said at that field, not in a toast (SPEC §8 40401-40405; 10004 a full card store). */
const FIELD_CODES = [40401, 40402, 40403, 40404, 40405, 10004];

type State = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; initial: Values; values: Values };

/** Weekday names in the console language, Monday first (no catalogue text needed). */
export const weekdays = () => Array.from({ length: 7 }, (_, i) => new Date(2024, 0, 1 + i).toLocaleDateString(i18n.locale, { weekday: 'long' }));

/** A reply's values for the fields (missing ones as ''). */
export function toValues(reply: object, fields: readonly BoundField[]): Values {
  const r = reply as Record<string, unknown>;
  return Object.fromEntries(valueFields(fields).map((f) => [f.name, typeof r[f.name] === 'number' || typeof r[f.name] === 'string' ? (r[f.name] as Value) : '']));
}

/**
 * Sends a form's write. Resolves with the messages of named fields (none
 * when it succeeded): 10003 / 10005 come back naming a field, which gets the
 * message (a toast when the field is not on the form). Other failures are
 * thrown, after the request layer has told the user.
 */
export async function send(call: ShippedCall, body: Values, fields: readonly BoundField[], retry?: Retry): Promise<Record<string, string> | null> {
  const r = await requestGoform(call, body as never, { expect: FIELD_CODES });
  if (r.retvalue === 0) return null;
  if (r.retvalue === retry?.code) return (await confirmAction(i18n._(retry.ask))) ? send(call, { ...body, ...retry.with }, fields) : {};
  const message = messageFor(r.retvalue, r.msg);
  if (r.field && valueFields(fields).some((f) => f.name === r.field)) return { [r.field]: message };
  notify('error', message);
  return {};
}

export const say = (p?: Problem) => p && i18n._(p.id, p.values);

export function useSettings(def: FormDef) {
  const contract = rulesOf(def.write);
  const fields = useMemo(() => bindFields(def.fields, contract), [def]);
  const range = def.key && contract[def.key.name];
  const [n, setN] = useState(range?.min ?? 1);
  const [state, setState] = useState<State>({ status: 'loading' });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const request = (k: number) => ({ ...def.params, ...(def.key && { [def.key.name]: k }) });

  /** Reads record `k`; with `keep`, what was typed stays on top of the new baseline. */
  const load = async (k = n, keep?: Values) => {
    if (!keep) {
      setState({ status: 'loading' });
      setTouched({});
      setServerErrors({});
    }
    // A refresh that fails leaves the form as it was: what was typed is never lost.
    const failed = (message: string) => keep || setState({ status: 'failed', message });
    if (!def.read) return setState({ status: 'ready', initial: { ...def.blank }, values: { ...def.blank } });
    const r = await readOrFailure(def.read, request(k));
    if (typeof r === 'string') return failed(r);
    const initial = toValues(r, fields);
    setState({ status: 'ready', initial, values: keep ?? initial });
  };
  useEffect(() => {
    guardUnload();
    void load();
    return () => $unsaved.set(false);
  }, [def]);

  const ready = state.status === 'ready' ? state : null;
  const problems = ready ? { ...checkForm(fields, ready.values), ...def.check?.(ready.values) } : {};
  const dirty = ready ? changed(fields, ready.initial, ready.values) : [];
  useEffect(() => $unsaved.set(dirty.length > 0), [dirty.length]);

  const fill = (v: Values) => Object.entries(v).forEach(([name, value]) => set(name, value));
  const set = (name: string, value: Value) => {
    // From the latest state: two edits before a render both count.
    setState((s) => (s.status === 'ready' ? { ...s, values: { ...s.values, [name]: value } } : s));
    setTouched((t) => ({ ...t, [name]: true }));
    if (serverErrors[name]) setServerErrors(({ [name]: _, ...rest }) => rest);
  };

  const save = async () => {
    if (!ready || (def.read && !dirty.length)) return;
    if (Object.keys(problems).length) {
      setTouched(Object.fromEntries(valueFields(fields).map((f) => [f.name, true])));
      return;
    }
    const ask = typeof def.confirm === 'function' ? def.confirm(dirty, ready.values) : def.confirm;
    if (ask && !(await confirmAction(i18n._(ask)))) return;
    setSaving(true);
    try {
      const named = await send(def.write, { ...request(n), ...payload(fields, ready.values, contract, ready.initial) }, fields, def.retry);
      if (named) return setServerErrors(named);
      notify('success', i18n._(MSG_SUCCESS));
      setState({ status: 'ready', initial: ready.values, values: ready.values });
      setTouched({});
      $unsaved.set(false);
      await def.afterSave?.(dirty, ready.values);
    } catch (e) {
      // The request layer has said what went wrong; what was typed stays.
      if (def.refreshOn?.includes((e as GoformError).code as number)) await load(n, ready.values);
    } finally {
      setSaving(false);
    }
  };

  const reset = () => {
    if (ready) setState({ ...ready, values: ready.initial });
    setServerErrors({});
    setTouched({});
  };

  /** Another record: asks first when there are unsaved changes. */
  const choose = (k: number) => {
    if (!mayLeave()) return false;
    setN(k);
    void load(k);
    return true;
  };

  return { state, fields, problems, serverErrors, touched, dirty, saving, set, fill, save, reset, reload: () => load(), n, range, choose };
}

function KeyChooser({ form, def }: { form: ReturnType<typeof useSettings>; def: NonNullable<FormDef['key']> }) {
  const id = useId();
  const min = form.range?.min ?? 1;
  return (
    <div className="field">
      <label htmlFor={id}>{i18n._(def.label)}</label>
      <div className="control">
        {/* Not while a record is being read: a second read could overtake it and show the wrong record. */}
        <select id={id} value={form.n} disabled={form.state.status === 'loading'} onChange={(e) => form.choose(Number(e.currentTarget.value)) || (e.currentTarget.value = String(form.n))}>
          {Array.from({ length: (form.range?.max ?? min) - min + 1 }, (_, i) => (
            <option key={i}>{i + min}</option>
          ))}
        </select>
      </div>
      {def.note && <p className="unit">{i18n._(def.note)}</p>}
    </div>
  );
}

/** A weekday table: a row per day, Monday first, a column per value. */
function WeekTable({ f, cell }: { f: BoundField; cell: (c: BoundField, label: string) => ReactNode }) {
  const days = weekdays();
  return (
    <div className="table-wrap">
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">{i18n._(f.label)}</th>
            {f.cols!.map((c) => (
              <th scope="col" key={c.suffix}>
                {i18n._(c.label)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {f.cells!.map((row, d) => (
            <tr key={d}>
              <th scope="row">{days[d]}</th>
              {row.map((c) => (
                <td key={c.name}>{cell(c, `${days[d]} ${i18n._(c.label)}`)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SettingsForm({ def, children }: { def: FormDef; children?: ReactNode }) {
  const form = useSettings(def);
  const { state } = form;
  const control = (f: BoundField, values: Values, label?: string) => (
    <Control
      key={f.name}
      f={f}
      label={label}
      value={values[f.name]}
      error={form.serverErrors[f.name] ?? (form.touched[f.name] ? say(form.problems[f.name]) : undefined)}
      onValue={(v) => form.set(f.name, v)}
    />
  );
  return (
    <form
      className="panel settings"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void form.save();
      }}
    >
      {def.key && <KeyChooser form={form} def={def.key} />}
      {state.status === 'loading' ? (
        <Loading />
      ) : state.status === 'failed' ? (
        <Failed message={state.message} retry={form.reload} />
      ) : (
        <>
          {form.fields
            .filter((f) => visible(f, state.values))
            .map((f) => (f.cells ? <WeekTable key={f.name} f={f} cell={(c, label) => control(c, state.values, label)} /> : control(f, state.values)))}
          {def.fill
            ?.filter((b) => visible(b, state.values))
            .map((b) => (
              <p key={b.label}>
                <button type="button" className="button" onClick={() => form.fill(b.values(state.values))}>
                  {i18n._(b.label)}
                </button>
              </p>
            ))}
          {children}
          <div className="actions">
            <button type="submit" className="button primary" disabled={(def.read && !form.dirty.length) || form.saving} aria-busy={form.saving}>
              {i18n._('action.save')}
            </button>
            <button type="button" className="button" disabled={!form.dirty.length || form.saving} onClick={form.reset}>
              {i18n._('action.reset')}
            </button>
          </div>
        </>
      )}
    </form>
  );
}
