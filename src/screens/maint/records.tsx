// What the terminal collects (SPEC §2 Advanced, §3 Record, Report row,
// Temperature filter): attendance records, the attendance report and the
// temperature records. Each is a search over a list the device pages, and
// the first two download the same search as a spreadsheet. Times, days,
// minutes and temperatures show in the language's way; the search sends the
// device's YYYY-MM-DD.
import { useState } from 'react';
import { i18n } from '@lingui/core';
import type { ResponseOf } from '../../../contract/index.ts';
import type { ShippedCall } from '../../api/shipped.ts';
import { download } from '../../api/file.ts';
import { PagedTable, type PagedProps } from '../../form/PagedTable.tsx';
import { Search } from '../../form/Search.tsx';
import { opts, type FieldDef, type Values } from '../../form/validation.ts';
import type { Column } from '../../ui/Table.tsx';
import { num, shown, when } from '../../i18n/format.ts';

type Rec = ResponseOf<'searchrecord'>['List'][number];
type Row = ResponseOf<'GetReportFormInfo'>['List'][number];
type Temp = ResponseOf<'searchThermometryRecord'>['List'][number];

const BY_USER_AND_DAYS: FieldDef[] = [
  { name: 'UserID', kind: 'text', label: /*i18n*/ 'user.id' },
  { name: 'Start', kind: 'date', label: /*i18n*/ 'user.start' },
  { name: 'End', kind: 'date', label: /*i18n*/ 'user.end' },
];

/** YYYY-MM-DD of the browser's today, or of the first of this month. */
const day = (first?: boolean) => {
  const d = new Date();
  if (first) d.setDate(1);
  // The Swedish format is ISO's.
  return d.toLocaleDateString('sv');
};

const who = (): Column<Rec | Row | Temp>[] => [
  { head: i18n._('user.id'), cell: (r) => r.UserID },
  { head: i18n._('user.name'), cell: (r) => r.UserName },
];

/** A search, its download (when the device has one) and the paged list. */
function Searched<T>({ list, file, fields, blank, cols, names, name, save }: { list: ShippedCall; file?: ShippedCall; fields: FieldDef[]; blank: Values; cols: PagedProps<T>['cols']; names?: ShippedCall; name: string; save?: string }) {
  const [query, setQuery] = useState(blank);
  return (
    <section className="panel">
      <Search call={list} fields={fields} blank={blank} onQuery={setQuery}>
        {file && (
          <button type="button" className="button" onClick={() => download(file, query as never, `${save}.xlsx`)}>
            {i18n._('rec.download')}
          </button>
        )}
      </Search>
      <PagedTable<T> read={list} query={query} label={i18n._(name)} rowKey={(r) => JSON.stringify(r)} empty={i18n._('net.none')} cols={cols} names={names} />
    </section>
  );
}

// Status names are the device's own (SPEC §3 attendance status, SetApplyParam): the list waits for them, never showing the number instead.
export const Records = () => (
  <Searched<Rec>
    list="searchrecord"
    file="DownloadRecordForm"
    save="records"
    name={/*i18n*/ 'route.recordList'}
    fields={BY_USER_AND_DAYS}
    blank={{ UserID: '', Start: '', End: '' }}
    names="SetApplyParam"
    cols={(names) => [{ head: i18n._('rec.time'), cell: (r) => when(r.Time) }, ...who(), { head: i18n._('basic.status'), cell: (r) => names[`Status${r.Status}`] as string }]}
  />
);

/** The report's columns after the user: the row's fields, in order, and their header ids. */
const REPORT = { Date: /*i18n*/ 'basic.date', FirstIn: /*i18n*/ 'rec.firstIn', LastOut: /*i18n*/ 'rec.lastOut', InTime: /*i18n*/ 'rec.inTime', OutTime: /*i18n*/ 'rec.outTime', Late: /*i18n*/ 'rec.late', Early: /*i18n*/ 'rec.early' } as const;

export const Report = () => (
  <Searched<Row>
    list="GetReportFormInfo"
    file="DownloadReportForm"
    save="report"
    name={/*i18n*/ 'route.report'}
    fields={BY_USER_AND_DAYS}
    blank={{ UserID: '', Start: day(true), End: day() }}
    cols={[...who(), ...Object.entries(REPORT).map(([k, head]): Column<Row> => ({ head: i18n._(head), cell: (r) => shown(r[k as keyof typeof REPORT]) }))]}
  />
);

export const Thermometry = () => (
  <Searched<Temp>
    list="searchThermometryRecord"
    name={/*i18n*/ 'route.thermometry'}
    fields={[{ name: 'Type', kind: 'select', label: /*i18n*/ 'rec.filter', options: opts(/*i18n*/ 'rec.all', /*i18n*/ 'rec.abnormal', /*i18n*/ 'rec.normal') }]}
    blank={{ Type: 0 }}
    cols={[
      { head: i18n._('rec.time'), cell: (r) => when(r.Time) },
      ...who(),
      {
        head: i18n._('rec.temp'),
        // Abnormal stands out by a sign and a word, not by colour alone.
        cell: (r) => (r.Abnormal ? <b className="bad">⚠ {num(+r.Temperature, 1)} °C {i18n._('rec.abnormal')}</b> : `${num(+r.Temperature, 1)} °C`),
      },
    ]}
  />
);

type Op = ResponseOf<'searchOperationLog'>['List'][number];

/** The operation log's kinds by number (contract/oplog.ts), All (0) first. */
const KINDS = opts(/*i18n*/ 'rec.all', /*i18n*/ 'login.submit', /*i18n*/ 'log.failed', /*i18n*/ 'log.locked', /*i18n*/ 'menu.logout', /*i18n*/ 'log.settings', /*i18n*/ 'route.addUser', /*i18n*/ 'route.userEdit', /*i18n*/ 'log.deleted', /*i18n*/ 'route.firmwareUpgrade', /*i18n*/ 'route.restart', /*i18n*/ 'route.initialization', /*i18n*/ 'log.backup', /*i18n*/ 'log.restore');

export const OpLog = () => (
  <Searched<Op>
    list="searchOperationLog"
    file="DownloadOperationLog"
    save="oplog"
    name={/*i18n*/ 'route.opLog'}
    fields={[{ name: 'Kind', kind: 'select', label: /*i18n*/ 'log.kind', options: KINDS }, ...BY_USER_AND_DAYS.slice(1)]}
    blank={{ Kind: 0, Start: '', End: '' }}
    cols={[
      { head: i18n._('rec.time'), cell: (r) => when(r.Time) },
      { head: i18n._('log.kind'), cell: (r) => i18n._(KINDS[r.Kind]?.label ?? String(r.Kind)) },
      { head: i18n._('login.username'), cell: (r) => r.User },
      { head: i18n._('net.ip'), cell: (r) => r.Address },
      { head: i18n._('log.detail'), cell: (r) => r.Detail },
    ]}
  />
);
