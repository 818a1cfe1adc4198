// A list of numbered records (periods, work groups) with add, in a dialog
// drawn by the form engine, and delete of the selected ones after "Are you
// Sure?". The add dialog validates like any form and keeps what was typed
// when the device refuses it.
import { useEffect, useId, useMemo, useState } from 'react';
import { i18n } from '@lingui/core';
import type { ShippedCall } from '../api/shipped.ts';
import { rulesOf } from '../api/rules.ts';
import { MSG_SUCCESS } from '../api/errors.ts';
import { readOrFailure } from '../api/request.ts';
import { notify } from '../ui/toast.ts';
import { confirmAction } from '../ui/confirm.tsx';
import { Dialog, DialogButtons } from '../ui/Dialog.tsx';
import { Table } from '../ui/Table.tsx';
import { bindFields, checkForm, payload, type FieldDef, type Problem, type Values } from './validation.ts';
import { Control } from './Control.tsx';
import { say, send } from './SettingsForm.tsx';
import { Failed, Loading } from '../ui/Status.tsx';

type Item = Record<string, unknown>;

export interface ListDef {
  /** GET: the list; `items` names the reply field holding it (each item has a `Num`). */
  read: ShippedCall;
  items: string;
  /** POST: adds one item (its constraints check the dialog). */
  add: ShippedCall;
  /** POST: deletes the numbers in `Nums` ("1,3"). */
  del: ShippedCall;
  /** Sent with every call (e.g. the period type). */
  params?: Values;
  /** Sent with the delete only (e.g. which kind of group). */
  delParams?: Values;
  /** Columns: field name, header id, and how a value reads (text by default). */
  cols: readonly [string, string, ((v: unknown) => string)?][];
  fields: readonly FieldDef[];
  /** Values a new item starts from. */
  blank: Values;
  addTitle: string;
  /** "Please select ..." when deleting with nothing selected. */
  none: string;
  check?: (v: Values) => Record<string, Problem>;
}

/**
 * A delete, asked first ("Are you Sure?", SPEC §5): with nothing picked it
 * says `none` instead; then `run`, "Success" unless `run` failed (the
 * request layer has said why), and `after` (read again). Nothing sent,
 * nothing read: a selection stays as it was.
 */
export async function removeAsked(picked: number, none: string, run: () => Promise<unknown>, after: () => void): Promise<void> {
  if (!picked) return notify('error', i18n._(none));
  if (!(await confirmAction())) return;
  try {
    await run();
    notify('success', i18n._(MSG_SUCCESS));
  } catch {
    // Already said.
  }
  after();
}

export function RecordList({ def }: { def: ListDef }) {
  const [items, setItems] = useState<Item[] | string | null>(null);
  const [picked, setPicked] = useState<number[]>([]);
  const [draft, setDraft] = useState<Values | null>(null);
  const [touched, setTouched] = useState(false);
  const [server, setServer] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const formId = useId();
  const contract = rulesOf(def.add);
  const fields = useMemo(() => bindFields(def.fields, contract), [def]);

  const load = async () => {
    setItems(null);
    setPicked([]);
    const r = await readOrFailure(def.read, def.params);
    setItems(typeof r === 'string' ? r : ((r[def.items] as Item[]) ?? []));
  };
  useEffect(() => void load(), [def]);

  const problems = draft ? { ...checkForm(fields, draft), ...def.check?.(draft) } : {};

  const add = async () => {
    setTouched(true);
    if (!draft || Object.keys(problems).length) return;
    setBusy(true);
    try {
      const named = await send(def.add, { ...payload(fields, draft, contract), ...def.params }, fields);
      if (named) setServer(named);
      else {
        notify('success', i18n._(MSG_SUCCESS));
        setDraft(null);
        void load();
      }
    } catch {
      // Already shown (e.g. "Add up to limit !"); the dialog keeps what was typed.
    }
    setBusy(false);
  };

  const del = () =>
    removeAsked(
      picked.length,
      def.none,
      async () => {
        // A refusal naming no field was said by send(); no "Success" after it.
        if (await send(def.del, { ...def.params, ...def.delParams, Nums: picked.join(',') }, [])) throw 0;
      },
      load,
    );

  return (
    <section className="panel">
      <div className="actions">
        <button
          type="button"
          className="button primary"
          onClick={() => {
            setDraft({ ...def.blank });
            setTouched(false);
            setServer({});
          }}
        >
          {i18n._('acc.add')}
        </button>
        <button type="button" className="button" onClick={del}>
          {i18n._('acc.delete')}
        </button>
      </div>
      {items === null ? (
        <Loading />
      ) : typeof items === 'string' ? (
        <Failed message={items} retry={load} />
      ) : (
        <Table
          rows={items}
          rowKey={(it) => Number(it.Num)}
          cols={def.cols.map(([name, head, show]) => ({ head: i18n._(head), cell: (it: Item) => (show ? show(it[name]) : String(it[name] ?? '')) }))}
          empty={i18n._('acc.empty')}
          select={{ picked, onPick: (p) => setPicked(p as number[]), label: (it) => i18n._('acc.select', { name: String(it.Name ?? it.Num) }), all: i18n._('basic.selectAll') }}
        />
      )}
      <Dialog open={!!draft} title={i18n._(def.addTitle)} onClose={() => setDraft(null)} footer={<DialogButtons onCancel={() => setDraft(null)} form={formId} busy={busy} />}>
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
              <Control
                key={f.name}
                f={f}
                value={draft[f.name]}
                error={server[f.name] ?? (touched ? say(problems[f.name]) : undefined)}
                onValue={(v) => {
                  setDraft((d) => d && { ...d, [f.name]: v });
                  setServer({});
                }}
              />
            ))}
        </form>
      </Dialog>
    </section>
  );
}
