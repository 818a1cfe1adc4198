// The simulated terminal's Users area over HTTP: spreadsheet import (xlsx and
// csv, row by row, whole files refused) and export.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import ExcelJS from 'exceljs';
import { EXPORT_FIELDS } from '../../simulator/areas/users/sheets.ts';
import type { User } from '../../simulator/types.ts';
import { SHEET_MAX_BYTES, SHEET_MAX_ROWS, USER_FIELDS } from '../../contract/users.ts';
import { device, err, person, png } from './users-support.ts';

const sheets = suite('spreadsheets: import and export');

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const file = (data: Buffer | string, name: string) => ({ File: { data: typeof data === 'string' ? Buffer.from(data) : data, name } });

sheets('xlsx import: good rows added in one change, each bad row refused with its row, field and code', async () => {
  const d = await device();
  try {
    const user1 = JSON.stringify(d.user('1'));
    const takenCard = d.users().find((u) => u.CardNo && u.UserID !== '1')!.CardNo;
    const rows: unknown[][] = [
      ['UserName', 'UserID', 'CardNo', 'Password', 'Admin', 'AccessBegin', 'AccessEnd', 'IdentifyMode'],
      ['Ærøskøbing Ølsen', 20001, 4294967295, '', 2, '2026-01-01', '2026-12-31', 3], // 2: good (numbers read as their digits)
      ['Dup of seeded', '1', '', '', 0, '', '', 0], // 3: 40402
      ['Bad PIN', '20002', '', 'abc', 0, '', '', 0], // 4: 40404
      [], // 5: empty, skipped
      ['Card taken', '20003', takenCard, '', 0, '', '', 0], // 6: 40403
      ['Dup of row 2', '20001', '', '', 0, '', '', 0], // 7: 40402 (an earlier row)
      ['Backwards', '20004', '', '', 0, '2026-05-02', '2026-05-01', 0], // 8: 10005 AccessEnd
      ['=HYPERLINK("http://x","y")', '20005', '', '77', null, null, null, null], // 9: good, blanks left out
      ['', '20006', '', '', 0, '', '', 0], // 10: 10005 UserName
      ['Bad admin', '20007', '', '', 'x', '', '', 0], // 11: 10005 Admin
      ['Bad mode', '20008', '', '', 0, '', '', 7], // 12: 10005 IdentifyMode
      ['Same PIN', '20009', '', '77', 0, '', '', 0], // 13: 40405 (row 9 has it)
      ['Leading zero', '020010', '', '', 0, '', '', 0], // 14: 40401
      ['Card too big', '20011', 4294967296, '', 0, '', '', 0], // 15: 10005 CardNo
    ];
    const r = await d.upload('GetExcelAddUser', file(await xlsx(rows), 'users.xlsx'));
    assert.equal(r, {
      retvalue: 0,
      Added: 2,
      Refused: [
        { Row: 3, Field: 'UserID', Code: 40402, Msg: 'err.40402' },
        { Row: 4, Field: 'Password', Code: 40404, Msg: 'err.40404' },
        { Row: 6, Field: 'CardNo', Code: 40403, Msg: 'err.40403' },
        { Row: 7, Field: 'UserID', Code: 40402, Msg: 'err.40402' },
        { Row: 8, Field: 'AccessEnd', Code: 10005, Msg: 'err.10005' },
        { Row: 10, Field: 'UserName', Code: 10005, Msg: 'err.10005' },
        { Row: 11, Field: 'Admin', Code: 10005, Msg: 'err.10005' },
        { Row: 12, Field: 'IdentifyMode', Code: 10005, Msg: 'err.10005' },
        { Row: 13, Field: 'Password', Code: 40405, Msg: 'err.40405' },
        { Row: 14, Field: 'UserID', Code: 40401, Msg: 'err.40401' },
        { Row: 15, Field: 'CardNo', Code: 10005, Msg: 'err.10005' },
      ],
      RefusedCount: 11,
    });
    assert.equal(d.user('20001'), { UserID: '20001', UserName: 'Ærøskøbing Ølsen', Password: '', CardNo: '4294967295', CardType: 0, Admin: 2, Group: 0, IdentifyMode: 3, Shift: 0, AccessBegin: '2026-01-01', AccessEnd: '2026-12-31', Face: 0, FPMask: 0, Photo: 0 });
    assert.equal(d.user('20005'), { UserID: '20005', UserName: '=HYPERLINK("http://x","y")', Password: '77', CardNo: '', CardType: 0, Admin: 0, Group: 0, IdentifyMode: 0, Shift: 0, AccessBegin: '', AccessEnd: '', Face: 0, FPMask: 0, Photo: 0 });
    for (const id of ['20002', '20003', '20004', '20006', '20007', '20008', '20009', '20010', '20011']) assert.is(d.user(id), undefined, id);
    assert.is(JSON.stringify(d.user('1')), user1, 'the existing user is not replaced');
    assert.is(d.users().length, 302);
  } finally {
    await d.close();
  }
});

sheets('csv import: UTF-8 with a BOM, CRLF, quotes; every cell read as text (leading zeros kept, so refused)', async () => {
  const d = await device();
  try {
    const pin = d.users().find((u) => u.Password)!.Password;
    const seven = JSON.stringify(d.user('7'));
    const csv =
      '\uFEFFUserID,UserName,CardNo,Password,CardType,Group,Shift,AccessBegin\r\n' +
      '30001,"Doe, Jane",0,,1,1,2,2026-02-03\r\n' + // 2: good
      '007,James,,,,,,\r\n' + // 3: 40401 (not 7)
      '30002,Bond,0012,,,,,\r\n' + // 4: 10005 CardNo (not 12)
      '30003,"Quote ""Q""",,' + pin + ',,,,\r\n' + // 5: 40405
      ',,,,,,,\r\n' + // 6: empty, skipped
      '\r\n' + // 7: empty, skipped
      '30004,"Multi\nline",,,,,,\r\n' + // 8: 10005 UserName: a line break is a control character (docs/API.md, "What a device must refuse")
      '30005,Late,,,,,,2026-02-30x\r\n' + // 9: 10005 AccessBegin
      '30006,Ивана Петрова,123,00001234,0,0,0,\r\n'; // 10: good
    const r = await d.upload('GetExcelAddUser', file(csv, 'users.csv'));
    assert.equal(r, {
      retvalue: 0,
      Added: 2,
      Refused: [
        { Row: 3, Field: 'UserID', Code: 40401, Msg: 'err.40401' },
        { Row: 4, Field: 'CardNo', Code: 10005, Msg: 'err.10005' },
        { Row: 5, Field: 'Password', Code: 40405, Msg: 'err.40405' },
        { Row: 8, Field: 'UserName', Code: 10005, Msg: 'err.10005' },
        { Row: 9, Field: 'AccessBegin', Code: 10005, Msg: 'err.10005' },
      ],
      RefusedCount: 5,
    });
    assert.equal(d.user('30001'), { UserID: '30001', UserName: 'Doe, Jane', Password: '', CardNo: '0', CardType: 1, Admin: 0, Group: 1, IdentifyMode: 0, Shift: 2, AccessBegin: '2026-02-03', AccessEnd: '', Face: 0, FPMask: 0, Photo: 0 });
    assert.is(d.user('30004'), undefined);
    assert.equal([d.user('30006')!.UserName, d.user('30006')!.CardNo, d.user('30006')!.Password], ['Ивана Петрова', '123', '00001234']);
    assert.is(JSON.stringify(d.user('7')), seven, 'user 7 untouched');
  } finally {
    await d.close();
  }
});

sheets('whole files refused: not a sheet 10102, unknown column 10102, missing column 10003, too large 10101', async () => {
  const d = await device({ seedUsers: 3 });
  try {
    const n = d.users().length;
    assert.equal(await d.upload('GetExcelAddUser', file(png(), 'users.csv')), err(10102, 'File'), 'a PNG');
    assert.equal(await d.upload('GetExcelAddUser', file(Buffer.from([0x55, 0x73, 0xff, 0xfe, 0x2c]), 'u.csv')), err(10102, 'File'), 'not UTF-8');
    assert.equal(await d.upload('GetExcelAddUser', file(Buffer.from('UserID,UserName\n1\0,x'), 'u.csv')), err(10102, 'File'), 'a NUL byte');
    assert.equal(await d.upload('GetExcelAddUser', file(Buffer.from('PK\x03\x04 not really a zip'), 'u.xlsx')), err(10102, 'File'), 'a zip signature, no workbook');
    assert.equal(await d.upload('GetExcelAddUser', file('', 'u.csv')), err(10102, 'File'), 'an empty file is no sheet');
    assert.equal(await d.upload('GetExcelAddUser', file('UserID,UserName,Email\n9,x,a@b', 'u.csv')), err(10102, 'Email'));
    assert.equal(await d.upload('GetExcelAddUser', file('UserID,UserName,UserID\n9,x,9', 'u.csv')), err(10102, 'UserID'), 'a column twice');
    assert.equal(await d.upload('GetExcelAddUser', file('UserID,CardNo\n9,1', 'u.csv')), err(10003, 'UserName'));
    assert.equal(await d.upload('GetExcelAddUser', file(await xlsx([['UserName', 'Face'], ['x', 1]]), 'u.xlsx')), err(10102, 'Face'), 'enrolment is not a column');
    assert.equal(await d.upload('GetExcelAddUser', file(await xlsx([['UserName'], ['x']]), 'u.xlsx')), err(10003, 'UserID'));
    const rows = Array.from({ length: SHEET_MAX_ROWS + 1 }, (_, i) => `${i + 100},N${i}`).join('\n');
    assert.equal(await d.upload('GetExcelAddUser', file(`UserID,UserName\n${rows}`, 'u.csv')), err(10101, 'File'), 'too many rows');
    const pad = 'x'.repeat(SHEET_MAX_BYTES);
    assert.equal(await d.upload('GetExcelAddUser', file(`UserID,UserName\n9,${pad}`, 'u.csv')), err(10101, 'File'), 'too many bytes');
    assert.equal(await d.upload('GetExcelAddUser', file(Buffer.alloc(4 << 20, 0x41), 'u.csv')), err(10101, 'File'), 'far too many bytes, still answered');
    assert.is(d.users().length, n, 'nothing added');
  } finally {
    await d.close();
  }
});

sheets('import stops at MaxUser: the rows past it are refused with 10004', async () => {
  const d = await device({ seedUsers: 3, MaxUser: 5 });
  try {
    const r = await d.upload('GetExcelAddUser', file('UserID,UserName\n10,a\n11,b\n12,c\n13,d', 'u.csv'));
    assert.equal(r, { retvalue: 0, Added: 2, Refused: [{ Row: 4, Field: 'UserID', Code: 10004, Msg: 'msg.addUpToLimit' }, { Row: 5, Field: 'UserID', Code: 10004, Msg: 'msg.addUpToLimit' }], RefusedCount: 2 });
  } finally {
    await d.close();
  }
});

sheets('export: one sheet "Users", the header without Password, a row per user; text stays text, never a formula', async () => {
  const d = await device({ seedUsers: 40 });
  try {
    const hostile = ['=HYPERLINK("http://x","y")', '<img src=x onerror=alert(1)>', '+1+2', '-3', '@SUM(A1)', ' =1'];
    // A tab (or any control character) never gets in at all.
    assert.equal(await d.call('adduser', person('99', { UserName: '\t=1' })), { retvalue: 10005, msg: 'err.10005', field: 'UserName' });
    for (const [i, UserName] of hostile.entries()) assert.equal(await d.call('adduser', person(String(100 + i), { UserName, CardNo: i === 0 ? '0' : '', Password: '9999' + i })), { retvalue: 0 });
    const res = await d.raw('ExportUserAll');
    assert.is(res.status, 200);
    assert.is(res.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    assert.is(res.headers.get('content-disposition'), 'attachment; filename="users.xlsx"');
    assert.is(res.headers.get('cache-control'), 'no-store');
    assert.is(res.headers.get('x-content-type-options'), 'nosniff');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    assert.equal(
      wb.worksheets.map((w) => w.name),
      ['Users'],
    );
    const ws = wb.getWorksheet('Users')!;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    assert.equal(header, EXPORT_FIELDS);
    assert.not.ok(header.includes('Password'), 'no door PINs in a file');
    const users = d.users();
    assert.is(ws.actualRowCount, users.length + 1);
    users.forEach((u, i) => {
      const row = ws.getRow(i + 2);
      EXPORT_FIELDS.forEach((k, c) => {
        const cell = row.getCell(c + 1);
        if (USER_FIELDS[k].kind === 'string') {
          const want = u[k] as string;
          if (want === '') assert.ok(cell.value === null || cell.value === '', `${u.UserID} ${k} empty`);
          else {
            assert.is(cell.type, ExcelJS.ValueType.String, `${u.UserID} ${k} is a string cell`);
            assert.is(cell.value, want, `${u.UserID} ${k}`);
          }
          assert.is(cell.numFmt, '@', `${u.UserID} ${k} is formatted as text`);
          assert.is(cell.formula, undefined);
        } else {
          assert.is(cell.type, ExcelJS.ValueType.Number, `${u.UserID} ${k} is a number`);
          assert.is(cell.value, u[k]);
        }
      });
    });
    const names = users.map((_, i) => ws.getRow(i + 2).getCell(2).value);
    for (const h of hostile) assert.ok(names.includes(h), h);

    // The export reads back in: into a terminal with no users, every row is added as it was.
    const empty = await device({ seedUsers: 0 });
    try {
      const r = await empty.upload('GetExcelAddUser', file(Buffer.from(await (await d.raw('ExportUserAll')).arrayBuffer()), 'users.xlsx'));
      assert.equal(r, { retvalue: 0, Added: users.length, Refused: [], RefusedCount: 0 });
      const strip = (u: User) => ({ ...u, Password: '', Face: 0, FPMask: 0, Photo: 0 });
      assert.equal(empty.users(), users.map(strip));
    } finally {
      await empty.close();
    }
  } finally {
    await d.close();
  }
});
sheets.run();
