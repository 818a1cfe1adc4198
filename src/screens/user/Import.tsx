// Bulk add from a spreadsheet (GetExcelAddUser): pick an .xlsx or .csv file,
// send it, and read what the device did: how many users were added, and each
// refused row with its column and why. A refused row changed nothing.
import { useId, useState } from 'react';
import { i18n } from '@lingui/core';
import type { ResponseOf } from '../../../contract/index.ts';
import { requestGoform } from '../../api/request.ts';
import { messageFor } from '../../api/errors.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { FilePick } from '../../ui/FilePick.tsx';
import { Table } from '../../ui/Table.tsx';

type Report = ResponseOf<'GetExcelAddUser'>;

export function Import({ onClose }: { onClose: (added: boolean) => void }) {
  const form = useId();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const close = () => onClose(!!report?.Added);

  const send = async () => {
    if (!file) return;
    setBusy(true);
    try {
      const r = await requestGoform('GetExcelAddUser', { File: file });
      if (r.retvalue === 0) setReport(r as Report);
    } catch {
      // Already said (10101 too large, 10102 not a spreadsheet); the file stays picked.
    }
    setBusy(false);
  };

  return (
    <Dialog
      open
      title={i18n._('user.import')}
      onClose={close}
      footer={
        <button type="submit" form={form} className="button primary" disabled={!file || busy}>
          {i18n._('user.upload')}
        </button>
      }
    >
      <form
        id={form}
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <FilePick label={i18n._('user.sheet')} accept=".xlsx,.csv" onFile={(f) => (setFile(f), setReport(null))} />
      </form>
      {report && (
        <div role="status">
          <p>{i18n._('user.added', { n: report.Added })}</p>
          {report.RefusedCount > 0 && (
            <>
              <p>{i18n._('user.refused', { n: report.RefusedCount })}</p>
              <Table
                rows={report.Refused}
                rowKey={(r) => r.Row}
                empty=""
                cols={[
                  { head: i18n._('user.row'), cell: (r) => r.Row },
                  { head: i18n._('user.column'), cell: (r) => r.Field },
                  { head: i18n._('user.why'), cell: (r) => messageFor(r.Code, r.Msg) },
                ]}
              />
            </>
          )}
        </div>
      )}
    </Dialog>
  );
}
