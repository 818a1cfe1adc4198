// A list the device pages (users, records): the table asks for one page at a
// time (Page, PageSize; the reply gives Total and List), so a terminal at
// full capacity answers as fast as an empty one. The search is the caller's:
// a new `query` starts again at page 1. Cells that show a code by the
// device's own name for it (a record's attendance status) name the read that
// answers the names (`names`), asked beside each page: no row shows before
// both replies are in, so a code never stands in for its name, whichever
// reply comes first.
import { useEffect, useId, useRef, useState } from 'react';
import { i18n } from '@lingui/core';
import type { ShippedCall } from '../api/shipped.ts';
import { readOrFailure } from '../api/request.ts';
import { Table, type Column, type Key, type Selection } from '../ui/Table.tsx';
import { Failed, Loading } from '../ui/Status.tsx';
import type { Values } from './validation.ts';
import { num } from '../i18n/format.ts';

/** Page sizes every paged call takes (its contract's PageSize values). */
const SIZES = [10, 20, 50, 100];

type Fields = Record<string, unknown>;

export interface PagedProps<T> {
  read: ShippedCall;
  query: Values;
  /** The columns; a function of the names when `names` is given. */
  cols: readonly Column<T>[] | ((names: Fields) => readonly Column<T>[]);
  /** A read answering the device's names for codes the cells show (SetApplyParam). */
  names?: ShippedCall;
  rowKey: (row: T) => Key;
  empty: string;
  label: string;
  select?: Omit<Selection<T>, 'picked' | 'onPick'> & { picked: Key[]; onPick: (p: Key[]) => void };
  /** Change it to read the page again (after a delete). */
  reload?: number;
}

export function PagedTable<T>({ read, query, cols, names, rowKey, empty, label, select, reload }: PagedProps<T>) {
  const id = useId();
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(20);
  const [data, setData] = useState<{ rows: T[]; total: number; named: Fields } | string | null>(null);
  const q = JSON.stringify(query);
  useEffect(() => setPage(1), [q]);
  // Only the answer to the latest request is shown (a new search can overtake a slow page).
  const latest = useRef(0);

  const load = async () => {
    const mine = ++latest.current;
    setData(null);
    select?.onPick([]);
    const [r, named] = await Promise.all([readOrFailure(read, { ...query, Page: page, PageSize: size }), names ? readOrFailure(names) : {}]);
    if (mine === latest.current) setData(typeof r === 'string' ? r : typeof named === 'string' ? named : { rows: (r.List as T[] | undefined) ?? [], total: (r.Total as number | undefined) ?? 0, named });
  };
  useEffect(() => void load(), [q, page, size, reload]);

  if (data === null) return <Loading />;
  if (typeof data === 'string') return <Failed message={data} retry={load} />;
  const pages = Math.max(1, Math.ceil(data.total / size));
  return (
    <>
      <Table rows={data.rows} cols={typeof cols === 'function' ? cols(data.named) : cols} rowKey={rowKey} label={label} empty={empty} select={select} />
      <nav className="pager" aria-label={i18n._('form.page')}>
        <button type="button" className="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          {i18n._('form.prev')}
        </button>
        <label>
          {i18n._('form.page')}{' '}
          <input
            type="number"
            min={1}
            max={pages}
            value={page}
            onChange={(e) => {
              const n = Math.trunc(Number(e.currentTarget.value));
              if (n >= 1 && n <= pages) setPage(n);
            }}
          />{' '}
          {i18n._('form.of', { n: num(pages) })}
        </label>
        <button type="button" className="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
          {i18n._('form.next')}
        </button>
        <label htmlFor={id}>{i18n._('form.perPage')}</label>
        <select id={id} value={size} onChange={(e) => (setSize(Number(e.currentTarget.value)), setPage(1))}>
          {SIZES.map((n) => (
            <option key={n}>{n}</option>
          ))}
        </select>
        <span>{i18n._('form.total', { n: data.total })}</span>
      </nav>
    </>
  );
}
