// A table of device records: column headers, a row per record, an optional
// checkbox column with "select all", and a row saying the list is empty.
// Cells render device strings as text, never as markup, each isolated in its
// own direction (an IP address or a MAC stays left to right in Arabic, a
// Hebrew name right to left in English).
import type { ReactNode } from 'react';

export type Key = string | number;

export interface Column<T> {
  /** Header text (already translated). */
  head: string;
  cell: (row: T) => ReactNode;
}

export interface Selection<T> {
  picked: readonly Key[];
  onPick: (picked: Key[]) => void;
  /** Accessible name of a row's checkbox. */
  label: (row: T) => string;
  /** Accessible name of the "select all" checkbox. */
  all: string;
}

export function Table<T>({ rows, cols, rowKey, label, empty, select }: { rows: readonly T[]; cols: readonly Column<T>[]; rowKey: (row: T) => Key; label?: string; empty: string; select?: Selection<T> }) {
  const all = rows.length > 0 && select?.picked.length === rows.length;
  return (
    // It may scroll sideways on a narrow screen: reachable by keyboard (WCAG 2.1.1); a region named by the table's label, if it has one.
    <div className="table-wrap" tabIndex={0} role={label ? 'region' : undefined} aria-label={label}>
      <table className="grid" aria-label={label}>
        <thead>
          <tr>
            {select && (
              <th scope="col">
                <input type="checkbox" aria-label={select.all} checked={all} onChange={() => select.onPick(all ? [] : rows.map(rowKey))} />
              </th>
            )}
            {cols.map((c) => (
              <th scope="col" key={c.head}>
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const k = rowKey(r);
            const on = !!select?.picked.includes(k);
            return (
              <tr key={k}>
                {select && (
                  <td>
                    <input type="checkbox" aria-label={select.label(r)} checked={on} onChange={() => select.onPick(on ? select.picked.filter((x) => x !== k) : [...select.picked, k])} />
                  </td>
                )}
                {cols.map((c) => (
                  <td key={c.head}>
                    <bdi>{c.cell(r)}</bdi>
                  </td>
                ))}
              </tr>
            );
          })}
          {!rows.length && (
            <tr>
              <td colSpan={cols.length + (select ? 1 : 0)}>{empty}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
