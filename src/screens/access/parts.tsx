// Access control building blocks the settings engine does not have (yet):
// an input for one contract field, a form over numbered records (time group,
// time zone, shift: GET Set<Name>?<key>=n), optionally laid out as a table,
// and a list with add and delete (periods, work groups). Validation comes from
// src/form/rules.ts and the contract; calls come in as closures so every call
// name stays a literal in the screen files.
import { useEffect, useId, useState } from 'react';
import { i18n } from '@lingui/core';
import type { Envelope, Fields } from '../../api/contract.ts';
import { MESSAGES, messageFor } from '../../api/errors.ts';
import { bindFields, changed, checkForm, payload, type BoundField, type FieldDef, type Problem, type Value, type Values } from '../../form/rules.ts';
import { $unsaved, guardUnload, mayLeave } from '../../form/unsaved.ts';
import { notify } from '../../ui/toast.ts';
import { confirmAction } from '../../ui/confirm.tsx';
import { Dialog, DialogButtons } from '../../ui/Dialog.tsx';

type Rec = Record<string, unknown>;
type Call = (p: Values) => Promise<Envelope>;
/** A field; `datetime` shows a date and time box for "YYYY-MM-DD HH:MM". */
export type Def = FieldDef & { datetime?: boolean };
type Bound = BoundField & { datetime?: boolean };

const bind = (defs: readonly Def[], contract: Fields = {}): Bound[] =>
  bindFields(
    defs,
    // The console bundle carries constraints only for the calls it writes with; the rest are checked by the device.
    Object.fromEntries(defs.map((d) => [d.name, contract[d.name] ?? { kind: 'string', doc: '' }])),
  );

const toValues = (r: Rec, fields: readonly FieldDef[]): Values =>
  Object.fromEntries(fields.map((f) => [f.name, typeof r[f.name] === 'number' || typeof r[f.name] === 'string' ? (r[f.name] as Value) : '']));

const say = (p?: Problem) => p && i18n._(p.id, p.values);

/** 10003 / 10005 name a field: the message goes there; anything else is a toast (or was already shown). */
function fieldError(r: Envelope, names: readonly FieldDef[]): Record<string, string> {
  const m = messageFor(r.retvalue, r.msg);
  if (r.field && names.some((f) => f.name === r.field)) return { [r.field]: m };
  notify('error', m);
  return {};
}

export function Input({ f, value, error, label, onValue }: { f: Bound; value: Value; error?: string; label?: string; onValue: (v: Value) => void }) {
  const id = useId();
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? id + 'e' : undefined,
    'aria-label': label,
  };
  const box =
    f.kind === 'select' ? (
      <select {...common} value={String(value)} onChange={(e) => onValue(f.options!.find((o) => String(o.value) === e.currentTarget.value)!.value)}>
        {f.options!.map((o) => (
          <option key={o.value} value={String(o.value)}>
            {i18n._(o.label)}
          </option>
        ))}
      </select>
    ) : (
      <input
        {...({
          ...common,
          type: f.datetime ? 'datetime-local' : f.kind === 'time' ? 'time' : 'text',
          inputMode: f.kind === 'number' ? 'numeric' : undefined,
          maxLength: f.maxLength,
          autoComplete: 'off',
          value: f.datetime ? String(value).replace(' ', 'T') : String(value),
        } as object)}
        onInput={(e) => onValue(f.datetime ? e.currentTarget.value.replace('T', ' ') : e.currentTarget.value)}
      />
    );
  return (
    <div class={error ? 'field invalid' : 'field'}>
      {!label && <label for={id}>{i18n._(f.label)}</label>}
      <div class="control">
        {box}
        {f.unit && <span class="unit">{i18n._(f.unit)}</span>}
      </div>
      {error && (
        <p class="field-error" id={id + 'e'}>
          {error}
        </p>
      )}
    </div>
  );
}

function Failed({ message, retry }: { message: string; retry: () => void }) {
  return (
    <div role="alert">
      <p>{message}</p>
      <button type="button" class="button" onClick={retry}>
        {i18n._('action.retry')}
      </button>
    </div>
  );
}

const Loading = () => (
  <p class="loading" aria-busy="true">
    {i18n._('state.loading')}
  </p>
);

export interface NumberedDef {
  /** GET Set<Name>?<key>=n */
  read: (n: number) => Promise<Envelope>;
  /** POST Get<Name> with the key and the fields. */
  write: Call;
  /** The write call's request fields (constraints, including the key's range). */
  contract: Fields;
  key: string;
  keyLabel: string;
  fields: readonly Def[];
  /** A message id shown under the number. */
  note?: string;
  /** Lay the fields out as a table, row by row: row labels (text) and column labels (ids). */
  table?: { corner: string; rows: string[]; cols: string[] };
  /** Checks between fields (e.g. an end not before its start). */
  check?: (v: Values) => Record<string, Problem>;
}

type Loaded = { initial: Values; values: Values } | 'loading' | string;

/** Edits one numbered record at a time; choosing another number asks first when there are unsaved changes. */
export function NumberedForm({ def }: { def: NumberedDef }) {
  const range = def.contract[def.key];
  const [n, setN] = useState(range.min ?? 1);
  const [state, setState] = useState<Loaded>('loading');
  const [touched, setTouched] = useState(false);
  const [server, setServer] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const fields = bind(def.fields, def.contract);
  const keyId = useId();

  const load = async (k: number) => {
    setState('loading');
    setTouched(false);
    setServer({});
    try {
      const r = await def.read(k);
      const values = toValues(r as unknown as Rec, fields);
      setState(r.retvalue === 0 ? { initial: values, values } : messageFor(r.retvalue, r.msg));
    } catch (e) {
      setState((e as Error).message);
    }
  };
  useEffect(() => {
    guardUnload();
    void load(n);
    return () => $unsaved.set(false);
  }, []);

  const ready = typeof state === 'object' ? state : null;
  const problems = ready ? { ...checkForm(fields, ready.values), ...def.check?.(ready.values) } : {};
  const dirty = ready ? changed(fields, ready.initial, ready.values).length > 0 : false;
  useEffect(() => $unsaved.set(dirty), [dirty]);

  const save = async () => {
    if (!ready || !dirty) return;
    setTouched(true);
    if (Object.keys(problems).length) return;
    setSaving(true);
    try {
      const r = await def.write({ [def.key]: n, ...payload(fields, ready.values, def.contract) });
      if (r.retvalue === 0) {
        notify('success', i18n._(MESSAGES.success));
        setState({ initial: ready.values, values: ready.values });
        setTouched(false);
      } else setServer(fieldError(r, fields));
    } catch {
      // The request layer has said what went wrong; what was typed stays.
    }
    setSaving(false);
  };

  const input = (f: Bound, label?: string) =>
    ready && (
      <Input
        key={f.name}
        f={f}
        label={label}
        value={ready.values[f.name]}
        error={server[f.name] ?? (touched || ready.values[f.name] !== ready.initial[f.name] ? say(problems[f.name]) : undefined)}
        onValue={(v) => {
          setState({ ...ready, values: { ...ready.values, [f.name]: v } });
          setServer({});
        }}
      />
    );

  const t = def.table;
  return (
    <form
      class="panel settings"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div class="field">
        <label for={keyId}>{i18n._(def.keyLabel)}</label>
        <div class="control">
          <select
            id={keyId}
            value={n}
            onChange={(e) => {
              const k = Number(e.currentTarget.value);
              if (!mayLeave()) return void (e.currentTarget.value = String(n));
              setN(k);
              void load(k);
            }}
          >
            {Array.from({ length: (range.max ?? 1) - (range.min ?? 1) + 1 }, (_, i) => i + (range.min ?? 1)).map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </div>
        {def.note && <p class="unit">{i18n._(def.note)}</p>}
      </div>
      {state === 'loading' ? (
        <Loading />
      ) : !ready ? (
        <Failed message={state as string} retry={() => void load(n)} />
      ) : t ? (
        <div style={{ overflowX: 'auto' }}>
          <table class="grid">
            <thead>
              <tr>
                <th scope="col">{i18n._(t.corner)}</th>
                {t.cols.map((c) => (
                  <th scope="col" key={c}>
                    {i18n._(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {t.rows.map((row, r) => (
                <tr key={row}>
                  <th scope="row">{row}</th>
                  {t.cols.map((c, i) => (
                    <td key={c}>{input(fields[r * t.cols.length + i], `${row} ${i18n._(c)}`)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        fields.map((f) => input(f))
      )}
      <div class="actions">
        <button type="submit" class="button primary" disabled={!dirty || saving} aria-busy={saving}>
          {i18n._('action.save')}
        </button>
        <button type="button" class="button" disabled={!dirty || saving} onClick={() => ready && setState({ ...ready, values: ready.initial })}>
          {i18n._('action.reset')}
        </button>
      </div>
    </form>
  );
}

export interface ListDef {
  /** Reads the list; `items` names the reply field holding it (each item has a `Num`). */
  read: () => Promise<Envelope>;
  items: string;
  add: Call;
  /** Deletes the given numbers ("1,3"). */
  del: (nums: string) => Promise<Envelope>;
  /** Columns: field name, header id, and how a value reads (text by default). */
  cols: readonly [string, string, ((v: unknown) => string)?][];
  /** The add call's request fields. */
  contract?: Fields;
  fields: readonly Def[];
  /** Values a new item starts from. */
  blank: Values;
  addTitle: string;
  /** "Please select ..." when deleting with nothing selected. */
  none: string;
  check?: (v: Values) => Record<string, Problem>;
}

/** A list of numbered items with add (in a dialog) and delete selected (after "Are you Sure?"). */
export function ItemList({ def }: { def: ListDef }) {
  const [items, setItems] = useState<Rec[] | string | null>(null);
  const [picked, setPicked] = useState<number[]>([]);
  const [draft, setDraft] = useState<Values | null>(null);
  const [touched, setTouched] = useState(false);
  const [server, setServer] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const formId = useId();
  const fields = bind(def.fields, def.contract);

  const load = async () => {
    setItems(null);
    setPicked([]);
    try {
      const r = await def.read();
      setItems(r.retvalue === 0 ? (((r as unknown as Rec)[def.items] as Rec[]) ?? []) : messageFor(r.retvalue, r.msg));
    } catch (e) {
      setItems((e as Error).message);
    }
  };
  useEffect(() => void load(), []);

  const problems = draft ? { ...checkForm(fields, draft), ...def.check?.(draft) } : {};

  const add = async () => {
    setTouched(true);
    if (!draft || Object.keys(problems).length) return;
    setBusy(true);
    try {
      const r = await def.add(payload(fields, draft, def.contract ?? {}));
      if (r.retvalue === 0) {
        notify('success', i18n._(MESSAGES.success));
        setDraft(null);
        void load();
      } else setServer(fieldError(r, fields));
    } catch {
      // Already shown (e.g. "Add up to limit !"); the dialog keeps what was typed.
    }
    setBusy(false);
  };

  const del = async () => {
    if (!picked.length) return notify('error', i18n._(def.none));
    if (!(await confirmAction())) return;
    try {
      const r = await def.del(picked.join(','));
      if (r.retvalue === 0) notify('success', i18n._(MESSAGES.success));
      else fieldError(r, []);
    } catch {
      // Already shown.
    }
    void load();
  };

  const list = Array.isArray(items) ? items : [];
  const all = list.length > 0 && picked.length === list.length;
  return (
    <section class="panel">
      <div class="actions">
        <button
          type="button"
          class="button primary"
          onClick={() => {
            setDraft({ ...def.blank });
            setTouched(false);
            setServer({});
          }}
        >
          {i18n._('acc.add')}
        </button>
        <button type="button" class="button" onClick={del}>
          {i18n._('acc.delete')}
        </button>
      </div>
      {items === null ? (
        <Loading />
      ) : typeof items === 'string' ? (
        <Failed message={items} retry={load} />
      ) : (
        <div style={{ overflowX: 'auto' }}>
          <table class="grid">
            <thead>
              <tr>
                <th scope="col">
                  <input type="checkbox" aria-label={i18n._('acc.selectAll')} checked={all} onChange={() => setPicked(all ? [] : list.map((it) => Number(it.Num)))} />
                </th>
                {def.cols.map(([name, label]) => (
                  <th scope="col" key={name}>
                    {i18n._(label)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.map((it) => {
                const num = Number(it.Num);
                const on = picked.includes(num);
                return (
                  <tr key={num}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={i18n._('acc.select', { name: String(it.Name ?? num) })}
                        checked={on}
                        onChange={() => setPicked(on ? picked.filter((x) => x !== num) : [...picked, num])}
                      />
                    </td>
                    {def.cols.map(([name, , show]) => (
                      <td key={name}>{show ? show(it[name]) : String(it[name] ?? '')}</td>
                    ))}
                  </tr>
                );
              })}
              {!list.length && (
                <tr>
                  <td colSpan={def.cols.length + 1}>{i18n._('acc.empty')}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <Dialog
        open={!!draft}
        title={i18n._(def.addTitle)}
        onClose={() => setDraft(null)}
        footer={<DialogButtons onCancel={() => setDraft(null)} form={formId} busy={busy} />}
      >
        <form
          id={formId}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          {draft &&
            fields.map((f) => (
              <Input
                key={f.name}
                f={f}
                value={draft[f.name]}
                error={server[f.name] ?? (touched ? say(problems[f.name]) : undefined)}
                onValue={(v) => {
                  setDraft({ ...draft, [f.name]: v });
                  setServer({});
                }}
              />
            ))}
        </form>
      </Dialog>
    </section>
  );
}

/** Weekday names in the console language, Monday first (no catalogue text needed). */
export const weekdays = (style: 'long' | 'short' = 'long') =>
  Array.from({ length: 7 }, (_, i) => new Date(2024, 0, 1 + i).toLocaleDateString(i18n.locale, { weekday: style }));
