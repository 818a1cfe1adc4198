// Settings backup and restore (issue 9 §5): export every setting the console
// reads into one file; restore one by showing first what would change, then
// writing only that, call by call, stopping at the first refusal. The file
// and its checks: ./backup.ts.
import { useState } from 'react';
import { i18n } from '@lingui/core';
import { requestGoform } from '../../api/request.ts';
import { MSG_SUCCESS } from '../../api/errors.ts';
import { saveFile } from '../../api/file.ts';
import { brand } from '../../brand.ts';
import { Control } from '../../form/Control.tsx';
import type { Value } from '../../form/validation.ts';
import { useStore } from '../../state/use-store.ts';
import { $session } from '../../state/session.ts';
import { confirmAction } from '../../ui/confirm.tsx';
import { FilePick } from '../../ui/FilePick.tsx';
import { Loading } from '../../ui/Status.tsx';
import { Table } from '../../ui/Table.tsx';
import { notify } from '../../ui/toast.ts';
import { CONFIRM_SAVE, offerLogin } from '../network/forms.tsx';
import { backup, nameOf, plan, restore, verify, type Change, type Row } from './backup.ts';

const HEADS = [/*i18n*/ 'bak.setting', /*i18n*/ 'bak.field', /*i18n*/ 'bak.old', /*i18n*/ 'bak.new'];

export default function Backup() {
  const funs = useStore($session)?.funs ?? [];
  const [pw, setPw] = useState<Value>(0);
  const [busy, setBusy] = useState(false);
  const [todo, setTodo] = useState<Change[]>([]);
  // What the screen says: why a file is refused, what is skipped, each write's result.
  const [lines, setLines] = useState<string[]>([]);
  const say = (l: string) => setLines((x) => [...x, l]);

  const run = async (f: () => Promise<unknown>) => {
    setBusy(true);
    // A read the device refused; other failures the request layer has said.
    await f().catch((e: Error) => say(e.message));
    setBusy(false);
  };

  // The device sees only reads and writes: the operation log has backup and restore from here.
  const note = (Kind: 12 | 13) => requestGoform('noteOperation', { Kind });

  const pick = (file: File | null) => {
    setTodo([]);
    setLines([]);
    if (file)
      void run(async () => {
        const f = verify(await file.text(), brand.id, (await requestGoform('SetInfoParam')).Model);
        if ('id' in f) return say(i18n._(f.id, f.values));
        const [changes, lacks] = await plan(f, funs);
        setLines(lacks.map((name) => i18n._('bak.lacks', { name })));
        setTodo(changes);
        if (!changes[0]) say(i18n._('bak.same'));
      });
  };

  const apply = () =>
    run(async () => {
      setTodo([]);
      await note(13);
      let asked;
      for (const { it, v } of todo) {
        const name = nameOf(it);
        let m: string | null = null;
        // Before the first change that may cut this page off the device (SPEC §4).
        if (it.part.link && !asked) m = (asked = await confirmAction(i18n._(CONFIRM_SAVE))) ? null : '';
        if (m == null) {
          m = await restore(it, v).catch((e: Error) => e.message);
          say(name + ': ' + (m ?? i18n._(MSG_SUCCESS)));
        }
        if (m != null) return say(i18n._('bak.stop', { name }));
      }
      notify('success', i18n._(MSG_SUCCESS));
      if (asked) await offerLogin();
    });

  return (
    <section className="panel">
      <Control f={{ name: 'pw', kind: 'switch', label: /*i18n*/ 'bak.pwd' }} value={pw} onValue={setPw} />
      <p className="actions">
        <button type="button" className="button primary" disabled={busy} onClick={() => run(async () => (saveFile(...(await backup(funs, pw == 1))), note(12)))}>
          {i18n._('bak.export')}
        </button>
      </p>
      <FilePick label={i18n._('bak.file')} accept=".json" onFile={pick} />
      {todo[0] && (
        <>
          <Table<Row> rows={todo.flatMap((c) => c.rows)} rowKey={(r) => r[0] + r[1]} cols={HEADS.map((h, i) => ({ head: i18n._(h), cell: (r) => r[i] }))} empty="" />
          <p className="actions">
            <button type="button" className="button primary" disabled={busy} onClick={apply}>
              {i18n._('bak.apply')}
            </button>
          </p>
        </>
      )}
      <ul aria-live="polite">
        {lines.map((l, i) => (
          <li key={i}>{l}</li>
        ))}
      </ul>
      {busy && <Loading />}
    </section>
  );
}
