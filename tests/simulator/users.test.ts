// The simulated terminal's Users area over HTTP, as docs/API.md says it
// behaves: validation and codes of every call, paging and searches on 10,000
// users, add / edit / delete, uniqueness and capacities, persistence (restart
// and SIGKILL), seeding. Enrolment and photos: users-enrol.test.ts;
// spreadsheets: users-sheets.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadModel } from '../../simulator/model.ts';
import { validate } from '../../simulator/validate.ts';
import { seedUsers } from '../../simulator/areas/users/seed.ts';
import type { User } from '../../simulator/types.ts';
import { USER_FIELDS } from '../../contract/users.ts';
import { callSimulator } from '../support/helpers.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';
import { device, err, jpeg, limit, person, png, tmp, type Device, type Rec } from './users-support.ts';

const seed = suite('seeding');

seed('a fresh store: 300 users, IDs 1..300, the same every time, every one fits the contract', () => {
  const profile = loadModel();
  const a = seedUsers(profile);
  assert.is(a.length, 300);
  assert.equal(a, seedUsers(profile), 'deterministic');
  assert.equal(
    a.map((u) => u.UserID),
    a.map((_, i) => String(i + 1)),
  );
  for (const u of a) {
    const fields = Object.fromEntries(Object.keys(USER_FIELDS).map((k) => [k, u[k as keyof User]]));
    assert.is(validate(fields, USER_FIELDS), null, u.UserID);
    assert.equal(Object.keys(u).sort(), [...Object.keys(USER_FIELDS), 'Face', 'FPMask', 'Photo'].sort(), 'only the contract fields');
    assert.ok(u.UserName.length <= 24);
  }
  assert.is(a[0].Admin, 1, 'user 1 is an administrator');
  const names = a.map((u) => u.UserName).join(' ');
  for (const [script, re] of Object.entries({
    'Latin with accents': /[À-ɏ]/u,
    Cyrillic: /\p{Script=Cyrillic}/u,
    Greek: /\p{Script=Greek}/u,
    Arabic: /\p{Script=Arabic}/u,
    Hebrew: /\p{Script=Hebrew}/u,
    Thai: /\p{Script=Thai}/u,
    Devanagari: /\p{Script=Devanagari}/u,
    Han: /\p{Script=Han}/u,
    Kana: /\p{Script=Hiragana}/u,
    Hangul: /\p{Script=Hangul}/u,
  }))
    assert.match(names, re, script);
  const cards = a.filter((u) => u.CardNo).map((u) => u.CardNo);
  assert.ok(cards.length > 50 && cards.length < 300, 'some with cards');
  assert.is(new Set(cards).size, cards.length, 'cards unique');
  const pins = a.filter((u) => u.Password).map((u) => u.Password);
  assert.is(new Set(pins).size, pins.length, 'passwords unique');
  assert.ok(a.some((u) => u.AccessBegin && u.AccessEnd) && a.some((u) => u.AccessBegin && !u.AccessEnd) && a.some((u) => !u.AccessBegin && u.AccessEnd));
  assert.ok(a.filter((u) => !u.AccessBegin && !u.AccessEnd).length > 100, 'most without a period');
  assert.ok(a.some((u) => u.Face) && a.some((u) => u.FPMask), 'faces and fingers enrolled');
  assert.ok(a.every((u) => u.Photo === 0));
});

seed('enrolled templates follow the profile: none without FP / FACE, never past the capacities', () => {
  const lite = seedUsers(loadModel('lite'));
  assert.ok(lite.every((u) => u.FPMask === 0) && lite.some((u) => u.Face));
  const iris = seedUsers(loadModel('iris'));
  assert.ok(iris.every((u) => u.FPMask === 0 && u.Face === 0));
  const small = seedUsers(loadModel('default', { MaxFACE: 7, MaxFP: 11, MaxCard: 5, MaxUser: 40, seedUsers: 100 }));
  assert.is(small.length, 40, 'at most MaxUser');
  assert.is(small.filter((u) => u.Face).length, 7);
  let fingers = 0;
  for (const u of small) for (let m = u.FPMask; m; m &= m - 1) fingers++;
  assert.is(fingers, 11);
  assert.is(small.filter((u) => u.CardNo).length, 5);
});

// How long seeding takes is the bench's (npm run bench, section simulator), not a test's: it is this machine's speed.
seed('10,000 users seed; the records name users 1 and 2', async () => {
  const d = await device({ seedUsers: 10000, MaxUser: 10000 });
  try {
    assert.is(d.users().length, 10000);
    const { Total, List } = await d.call('searchrecord', { Page: 1, PageSize: 100 });
    assert.is(Total, 100000);
    assert.ok((List as { UserID: string; UserName: string }[]).every((r) => d.user(r.UserID) && r.UserName));
  } finally {
    await d.close();
  }
});

seed('a store of the old user shape is brought up to the contract shape', async () => {
  const dir = tmp();
  const old = { admin: { username: 'admin', password: TEST_ADMIN.password, activated: true }, users: [{ id: '2', name: 'Li Wei', card: '1002', fingerprints: 1, face: 1, iris: 0 }, { id: '1', name: 'Ana García', card: '1001', fingerprints: 2, face: 0, iris: 0 }] };
  writeFileSync(join(dir, 'store.json'), JSON.stringify(old));
  const d = await device({}, { dir });
  try {
    assert.equal(d.users()[0], { UserID: '1', UserName: 'Ana García', Password: '', CardNo: '1001', CardType: 0, Admin: 0, Group: 0, IdentifyMode: 0, Shift: 0, AccessBegin: '', AccessEnd: '', Face: 0, FPMask: 3, Photo: 0 });
    assert.is(d.users()[1].UserID, '2');
    assert.is((await d.call('GetUserInfo', { UserID: '2' })).FPMask, 1);
  } finally {
    await d.close();
  }
});
seed.run();

// ---------------------------------------------------------------------------
const v = suite('validation and codes of every call');
let d: Device;
v.before(async () => {
  d = await device();
});
v.after(() => d.close());

v('userlist: paging fields and search patterns', async () => {
  assert.equal(await d.call('userlist', { PageSize: 10 }), err(10003, 'Page'));
  assert.equal(await d.call('userlist', { Page: 0, PageSize: 10 }), err(10005, 'Page'));
  assert.equal(await d.call('userlist', { Page: 1, PageSize: 15 }), err(10005, 'PageSize'));
  assert.equal(await d.call('userlist', { Page: 1, PageSize: 10, UserID: '1a' }), err(10005, 'UserID'));
  assert.equal(await d.call('userlist', { Page: 1, PageSize: 10, Start: '2026-02-30x' }), err(10005, 'Start'));
  assert.equal(await d.call('userlist', { Page: 1, PageSize: 10, End: '26-01-01' }), err(10005, 'End'));
  assert.equal(await d.call('userlist', { Page: 1, PageSize: 10, constructor: 'y' }), err(10005, 'constructor'));
  const proto = await fetch(`${d.sim.url}/goform/userlist?Page=1&PageSize=10&__proto__=x`, { headers: { 'X-Token': d.token } });
  assert.equal(await proto.json(), err(10005, '__proto__'));
  const r = await d.call('userlist', { Page: 1, PageSize: 10, UserID: '', Start: '', End: '' });
  assert.is(r.Total, 300, 'empty searches search nothing');
});

v('a malformed UserID answers 40401, a malformed Password 40404, each naming the field', async () => {
  for (const name of ['GetUserInfo', 'deleteuser'] as const) {
    assert.equal(await d.call(name, { UserID: '0' }), err(40401, 'UserID'), name);
    assert.equal(await d.call(name, { UserID: '01' }), err(40401, 'UserID'), name);
    assert.equal(await d.call(name, { UserID: '12345678901' }), err(40401, 'UserID'), name);
    assert.equal(await d.call(name, { UserID: 7 }), err(40401, 'UserID'), name);
    assert.equal(await d.call(name, {}), err(10003, 'UserID'), name);
    assert.equal(await d.call(name, { UserID: '999999' }), err(40401, 'UserID'), `${name}: no such user`);
  }
  assert.equal(await d.call('adduser', person('x')), err(40401, 'UserID'));
  assert.equal(await d.call('adduser', person('900', { Password: '12a' })), err(40404, 'Password'));
  assert.equal(await d.call('adduser', person('900', { Password: '123456789' })), err(40404, 'Password'));
  assert.equal(await d.call('edituser', person('1', { Password: ' 1' })), err(40404, 'Password'));
  assert.equal(await d.call('regfp', { UserID: 'a', Finger: 1 }), err(40401, 'UserID'));
  assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '', Type: 0 }), err(40401, 'UserID'));
});

v('adduser / edituser: every field checked against the contract; nothing changes', async () => {
  const before = JSON.stringify(d.users());
  const cases: [Rec, Rec][] = [
    [{ UserID: '900', Admin: 0, Group: 0, IdentifyMode: 0, Shift: 0 }, err(10003, 'UserName')],
    [person('900', { UserName: '   ' }), err(10005, 'UserName')],
    [person('900', { UserName: 'x'.repeat(USER_FIELDS.UserName.maxLength + 1) }), err(10005, 'UserName')],
    [person('900', { Admin: undefined }), err(10003, 'Admin')],
    [person('900', { Admin: 17 }), err(10005, 'Admin')],
    [person('900', { Admin: '1' }), err(10005, 'Admin')],
    [person('900', { Group: 2 }), err(10005, 'Group')],
    [person('900', { IdentifyMode: 7 }), err(10005, 'IdentifyMode')],
    [person('900', { Shift: 9 }), err(10005, 'Shift')],
    [person('900', { CardType: 2 }), err(10005, 'CardType')],
    [person('900', { CardNo: '0123' }), err(10005, 'CardNo')],
    [person('900', { CardNo: '12345678901' }), err(10005, 'CardNo')],
    [person('900', { CardNo: '4294967296' }), err(10005, 'CardNo')],
    [person('900', { AccessBegin: '2026-13-01' }), err(10005, 'AccessBegin')],
    [person('900', { AccessEnd: '2026/01/01' }), err(10005, 'AccessEnd')],
    [person('900', { AccessBegin: '2026-05-02', AccessEnd: '2026-05-01' }), err(10005, 'AccessEnd')],
    [person('900', { Face: 1 }), err(10005, 'Face')],
    [person('900', { Replace: 2 }), err(10005, 'Replace')],
  ];
  for (const [body, want] of cases) {
    assert.equal(await d.call('adduser', body), want, JSON.stringify(body));
    const edit: Rec = { ...body, UserID: '1' };
    if (!('Replace' in body)) assert.equal(await d.call('edituser', edit), want, `edit ${JSON.stringify(edit)}`);
  }
  assert.equal(await d.call('edituser', person('900')), err(40401, 'UserID'), 'edit of no such user');
  assert.equal(await d.call('adduser', person('900', { CardNo: '4294967295', AccessBegin: '2026-05-01', AccessEnd: '2026-05-01' })), { retvalue: 0 }, 'limits themselves are fine');
  assert.is(JSON.stringify(d.users().filter((u) => u.UserID !== '900')), before, 'the refused requests changed nothing');
});

v('deletsomeuser: 1 to 100 well-formed IDs, else 10005 and nothing deleted', async () => {
  const n = d.users().length;
  assert.equal(await d.call('deletsomeuser', { UserIDs: [] }), err(10005, 'UserIDs'));
  assert.equal(await d.call('deletsomeuser', { UserIDs: Array.from({ length: 101 }, (_, i) => String(i + 1)) }), err(10005, 'UserIDs'));
  assert.equal(await d.call('deletsomeuser', { UserIDs: ['10', '11', '012'] }), err(10005, 'UserIDs'));
  assert.equal(await d.call('deletsomeuser', { UserIDs: ['10', 11] }), err(10005, 'UserIDs'));
  assert.equal(await d.call('deletsomeuser', { UserIDs: '10' }), err(10005, 'UserIDs'));
  assert.equal(await d.call('deletsomeuser', {}), err(10003, 'UserIDs'));
  assert.is(d.users().length, n);
  assert.ok(d.user('10') && d.user('11'));
});

v('enrolment calls: fingers 0 to 9, types 0 and 1, one action at a time', async () => {
  assert.equal(await d.call('regfp', { UserID: '1', Finger: 10 }), err(10005, 'Finger'));
  assert.equal(await d.call('regfp', { UserID: '1' }), err(10003, 'Finger'));
  assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '1', Type: 2 }), err(10005, 'Type'));
  assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '1' }), err(10003, 'Type'));
  assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '1', Type: 1, Start: 1 }), err(10005, 'Type'), 'fingers start with regfp');
  assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '1', Type: 0, Start: 1, Cancel: 1 }), err(10005, 'Cancel'));
  assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '1', Type: 1, Delete: 1 }), err(10003, 'Finger'));
  assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '999999', Type: 0, Start: 1 }), err(40401, 'UserID'));
  assert.equal(await d.call('regfp', { UserID: '999999', Finger: 1 }), err(40401, 'UserID'));
  assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '1', Type: 0 }), { retvalue: 0 }, 'nothing running: 0');
});

v('photo and spreadsheet calls: the file parts are needed and must be files', async () => {
  assert.equal(await d.upload('UploadUserPhoto', { UserID: '1' }), err(10003, 'Photo'));
  assert.equal(await d.upload('UploadUserPhoto', { UserID: '1', Photo: 'not a file' }), err(10005, 'Photo'));
  assert.equal(await d.upload('UploadUserPhoto', { UserID: '01', Photo: { data: png(), name: 'a.png' } }), err(40401, 'UserID'));
  assert.equal(await d.upload('UploadUserPhoto', { UserID: '999999', Photo: { data: png(), name: 'a.png' } }), err(40401, 'UserID'));
  assert.equal(await d.upload('UploadUserPhoto', { UserID: '1', Photo: { data: png(), name: 'a.png' }, Extra: '1' }), err(10005, 'Extra'));
  assert.equal(await d.upload('GetExcelAddUser', {}), err(10003, 'File'));
  assert.equal(await d.upload('GetExcelAddUser', { File: 'UserID,UserName' }), err(10005, 'File'));
  assert.equal(await d.call('GetUserPhoto', { UserID: '1' }), err(40401, 'UserID'), 'no photo');
  assert.equal(await d.call('GetUserPhoto', { UserID: 'x' }), err(40401, 'UserID'));
  assert.equal(await d.call('ExportUserAll', { All: 1 }), err(10005, 'All'));
  // A JSON body where a multipart one belongs does not parse as a form.
  const res = await fetch(`${d.sim.url}/goform/UploadUserPhoto`, { method: 'POST', headers: { 'X-Token': d.token, 'Content-Type': 'application/json' }, body: '{"UserID":"1"}' });
  assert.equal(await res.json(), err(10005, ''));
});
v.run();

// ---------------------------------------------------------------------------
const big = suite('10,000 users: paging and searches');
let b: Device;
big.before(async () => {
  b = await device({ seedUsers: 10000, MaxUser: 10010 });
});
big.after(() => b.close());

const ids = (r: Rec) => (r.List as { UserID: string }[]).map((u) => u.UserID);

big('pages in numeric ID order; a page past the end is empty with the real Total', async () => {
  const p1 = await b.call('userlist', { Page: 1, PageSize: 10 });
  assert.is(p1.Total, 10000);
  assert.equal(ids(p1), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  assert.equal(Object.keys((p1.List as Rec[])[0]), ['UserID', 'UserName', 'CardNo'], 'list items carry the list fields only');
  assert.equal(ids(await b.call('userlist', { Page: 2, PageSize: 10 })), ['11', '12', '13', '14', '15', '16', '17', '18', '19', '20']);
  const last = await b.call('userlist', { Page: 100, PageSize: 100 });
  assert.is(ids(last).length, 100);
  assert.is(ids(last)[99], '10000');
  assert.equal(await b.call('userlist', { Page: 101, PageSize: 100 }), { retvalue: 0, Total: 10000, List: [] });
  assert.equal(ids(await b.call('userlist', { Page: 200, PageSize: 50 })).at(-1), '10000');
  assert.is(ids(await b.call('userlist', { Page: 3, PageSize: 20 }))[0], '41');
});

big('UserID search: IDs that start with the digits', async () => {
  const r = await b.call('userlist', { Page: 1, PageSize: 100, UserID: '12' });
  // 12, 120-129, 1200-1299
  assert.is(r.Total, 111);
  assert.equal(ids(r).slice(0, 12), ['12', '120', '121', '122', '123', '124', '125', '126', '127', '128', '129', '1200']);
  const p2 = await b.call('userlist', { Page: 2, PageSize: 100, UserID: '12' });
  assert.equal(
    ids(p2),
    Array.from({ length: 11 }, (_, i) => String(1289 + i)),
  );
  assert.is((await b.call('userlist', { Page: 1, PageSize: 10, UserID: '10000' })).Total, 1);
  assert.is((await b.call('userlist', { Page: 1, PageSize: 10, UserID: '0' })).Total, 0);
  assert.is((await b.call('userlist', { Page: 1, PageSize: 10, UserID: '99999' })).Total, 0);
});

big('time search: the access period reaches Start (no end: always) and begins by End (no beginning: always)', async () => {
  const periods: [string, string, string][] = [
    ['9000000001', '', ''],
    ['9000000002', '2026-03-01', '2026-03-31'],
    ['9000000003', '2026-03-01', ''],
    ['9000000004', '', '2026-03-31'],
    ['9000000005', '2026-05-01', '2026-06-30'],
    ['9000000006', '2025-01-01', '2025-12-31'],
  ];
  for (const [id, AccessBegin, AccessEnd] of periods) assert.equal(await b.call('adduser', person(id, { AccessBegin, AccessEnd })), { retvalue: 0 });
  const search = async (q: Rec) => ids(await b.call('userlist', { Page: 1, PageSize: 10, UserID: '900000000', ...q }));
  assert.equal(await search({}), ['9000000001', '9000000002', '9000000003', '9000000004', '9000000005', '9000000006']);
  assert.equal(await search({ Start: '2026-03-31' }), ['9000000001', '9000000002', '9000000003', '9000000004', '9000000005'], 'ends on Start still reaches it');
  assert.equal(await search({ Start: '2026-04-01' }), ['9000000001', '9000000003', '9000000005']);
  assert.equal(await search({ End: '2026-03-01' }), ['9000000001', '9000000002', '9000000003', '9000000004', '9000000006'], 'begins on End');
  assert.equal(await search({ End: '2026-02-28' }), ['9000000001', '9000000004', '9000000006']);
  assert.equal(await search({ Start: '2026-03-15', End: '2026-03-20' }), ['9000000001', '9000000002', '9000000003', '9000000004']);
  assert.equal(await search({ Start: '2026-07-01', End: '2026-07-31' }), ['9000000001', '9000000003']);
  // Over every user: the same rule, counted independently.
  const all = b.users();
  const want = all.filter((u) => (!u.AccessEnd || u.AccessEnd >= '2026-01-01') && (!u.AccessBegin || u.AccessBegin <= '2026-01-31')).length;
  assert.is((await b.call('userlist', { Page: 1, PageSize: 10, Start: '2026-01-01', End: '2026-01-31' })).Total, want);
  assert.ok(want < all.length && want > 0);
});

// How fast a page answers is measured by npm run bench (section simulator): a time limit here would test this machine.
big('a page deep in the list, with or without a search, answers that page only: PageSize users at most, in order, and the whole count', async () => {
  for (const q of [{ Page: 50, PageSize: 100 }, { Page: 1, PageSize: 100, UserID: '9' }, { Page: 3, PageSize: 50, Start: '2026-01-01', End: '2026-12-31' }, { Page: 1, PageSize: 10, UserID: '1', Start: '2025-06-01' }]) {
    const r = await b.call('userlist', q);
    const got = ids(r).map(Number);
    assert.ok(got.length > 0 && got.length <= q.PageSize, `${JSON.stringify(q)}: ${got.length} users`);
    assert.equal(got, [...got].sort((x, y) => x - y), 'in user ID order');
    assert.ok((r.Total as number) >= (q.Page - 1) * q.PageSize + got.length, `${JSON.stringify(q)}: Total ${r.Total} counts the whole search`);
  }
});
big.run();

// ---------------------------------------------------------------------------
const crud = suite('add, replace, edit, delete; uniqueness; capacities; counts');

crud('duplicate add answers 40402; Replace 1 replaces the fields and keeps templates and photo', async () => {
  const d = await device();
  try {
    assert.equal(await d.call('adduser', person('500', { UserName: 'Zoë', CardNo: '555000', Password: '4321', AccessBegin: '2026-01-01' })), { retvalue: 0 });
    const info = await d.call('GetUserInfo', { UserID: '500' });
    assert.equal(info, { retvalue: 0, UserID: '500', UserName: 'Zoë', Password: '4321', CardNo: '555000', CardType: 0, Admin: 0, Group: 0, IdentifyMode: 0, Shift: 0, AccessBegin: '2026-01-01', AccessEnd: '', Face: 0, FPMask: 0, Photo: 0 });
    assert.equal(await d.call('adduser', person('500', { UserName: 'Other' })), err(40402, 'UserID'));
    assert.is(d.user('500')!.UserName, 'Zoë');
    assert.equal(await d.upload('UploadUserPhoto', { UserID: '500', Photo: { data: png(), name: 'p.png', type: 'image/png' } }), { retvalue: 0 });
    await d.sim.store.update((s) => {
      const u = s.users.find((x) => x.UserID === '500')!;
      u.Face = 1;
      u.FPMask = 5;
    });
    assert.equal(await d.call('adduser', person('500', { UserName: 'Replaced', Admin: 3, Replace: 1 })), { retvalue: 0 });
    const r = await d.call('GetUserInfo', { UserID: '500' });
    assert.equal([r.UserName, r.Admin, r.CardNo, r.Password, r.AccessBegin, r.Face, r.FPMask, r.Photo], ['Replaced', 3, '', '', '', 1, 5, 1]);
    assert.equal(await d.call('adduser', person('501', { Replace: 1 })), { retvalue: 0 }, 'Replace with a new ID adds');
    assert.equal(await d.call('edituser', person('501', { UserName: 'Edited', CardNo: '555000', CardType: 1 })), { retvalue: 0 });
    assert.equal([d.user('501')!.UserName, d.user('501')!.CardNo, d.user('501')!.CardType], ['Edited', '555000', 1]);
    assert.is(d.users().filter((u) => u.UserID === '500' || u.UserID === '501').length, 2, 'no duplicates');
    // Stored in numeric order.
    const order = d.users().map((u) => Number(u.UserID));
    assert.equal(order, [...order].sort((x, y) => x - y));
  } finally {
    await d.close();
  }
});

crud('delete one and delete some: templates and photo go too; unknown IDs are passed over', async () => {
  const d = await device();
  try {
    assert.equal(await d.upload('UploadUserPhoto', { UserID: '7', Photo: { data: jpeg(), name: 'seven.jpg' } }), { retvalue: 0 });
    const file = join(d.dir, 'store.json.photos', '7');
    assert.ok(existsSync(file));
    assert.equal(await d.call('deleteuser', { UserID: '7' }), { retvalue: 0 });
    assert.not.ok(existsSync(file), 'photo removed');
    assert.equal(await d.call('GetUserInfo', { UserID: '7' }), err(40401, 'UserID'));
    assert.equal(await d.call('deleteuser', { UserID: '7' }), err(40401, 'UserID'));
    assert.equal(await d.upload('UploadUserPhoto', { UserID: '8', Photo: { data: jpeg(), name: 'eight.jpg' } }), { retvalue: 0 });
    assert.equal(await d.call('deletsomeuser', { UserIDs: ['8', '9', '9', '7', '9999999999', '10'] }), { retvalue: 0, Deleted: 3 });
    assert.not.ok(existsSync(join(d.dir, 'store.json.photos', '8')));
    assert.ok(!d.user('8') && !d.user('9') && !d.user('10') && d.user('11'));
    assert.is(d.users().length, 296);
    assert.equal(await d.call('deletsomeuser', { UserIDs: ['9999999999'] }), { retvalue: 0, Deleted: 0 });
    assert.is((await d.call('userlist', { Page: 1, PageSize: 10 })).Total, 296);
  } finally {
    await d.close();
  }
});

crud('a card or a password another user has: 40403 / 40405; the user keeps their own; empty passwords are many', async () => {
  const d = await device();
  try {
    assert.equal(await d.call('adduser', person('600', { CardNo: '600600', Password: '6006' })), { retvalue: 0 });
    assert.equal(await d.call('adduser', person('601', { CardNo: '600600' })), err(40403, 'CardNo'));
    assert.equal(await d.call('adduser', person('601', { Password: '6006' })), err(40405, 'Password'));
    assert.equal(await d.call('adduser', person('601', { CardNo: '600601', Password: '' })), { retvalue: 0 });
    assert.equal(await d.call('adduser', person('602', { Password: '' })), { retvalue: 0 });
    assert.equal(await d.call('edituser', person('601', { CardNo: '600600' })), err(40403, 'CardNo'));
    assert.equal(await d.call('edituser', person('601', { Password: '6006' })), err(40405, 'Password'));
    assert.equal(await d.call('adduser', person('601', { CardNo: '600600', Replace: 1 })), err(40403, 'CardNo'));
    assert.equal(await d.call('edituser', person('600', { UserName: 'Same card', CardNo: '600600', Password: '6006' })), { retvalue: 0 }, 'own card and password');
    assert.is(d.user('601')!.CardNo, '600601', 'refused edits changed nothing');
  } finally {
    await d.close();
  }
});

crud('capacities: MaxUser users, MaxCard cards -> 10004; replacing takes no new place', async () => {
  const d = await device({ seedUsers: 5, MaxUser: 6, MaxCard: 3 });
  try {
    const cards = d.users().filter((u) => u.CardNo).length;
    await d.sim.store.update((s) => {
      let n = 0;
      for (const u of s.users) u.CardNo = n++ < 3 ? `${700 + n}` : '';
    });
    assert.is(cards <= 3, true);
    assert.equal(await d.call('adduser', person('6', { CardNo: '999' })), limit('CardNo'), 'every card place taken');
    assert.equal(await d.call('adduser', person('6')), { retvalue: 0 });
    assert.equal(await d.call('adduser', person('7')), limit('UserID'));
    assert.equal(await d.call('adduser', person('6', { UserName: 'Again', Replace: 1 })), { retvalue: 0 });
    assert.equal(await d.call('edituser', person('1', { CardNo: '701' })), { retvalue: 0 }, 'keeping a card takes no new place');
    assert.equal(await d.call('edituser', person('5', { CardNo: '888' })), limit('CardNo'));
    assert.equal(await d.call('edituser', person('1', { CardNo: '' })), { retvalue: 0 });
    assert.equal(await d.call('edituser', person('5', { CardNo: '888' })), { retvalue: 0 }, 'a freed place can be used');
    assert.is(d.users().length, 6);
  } finally {
    await d.close();
  }
});

crud('system info counts follow the users: users, fingers, faces, cards; no iris', async () => {
  let clock = 1_000_000;
  const d = await device({ enroll: { ms: 100, outcome: 'success', timeoutMs: 1000 } }, { now: () => clock });
  try {
    const count = async () => {
      const i = await d.call('SetInfoParam');
      return [i.UserCount, i.FPCount, i.FaceCount, i.CardCount, i.IrisCount];
    };
    const users = d.users();
    let fp = 0;
    for (const u of users) for (let m = u.FPMask; m; m &= m - 1) fp++;
    const base = [users.length, fp, users.filter((u) => u.Face).length, users.filter((u) => u.CardNo).length, 0];
    assert.equal(await count(), base);
    assert.equal(await d.call('adduser', person('800', { CardNo: '800800' })), { retvalue: 0 });
    assert.equal(await count(), [base[0] + 1, base[1], base[2], base[3] + 1, 0]);
    assert.equal(await d.call('regfp', { UserID: '800', Finger: 6 }), { retvalue: 0 });
    clock += 100;
    assert.equal(await count(), [base[0] + 1, base[1] + 1, base[2], base[3] + 1, 0], 'a finished enrolment counts before anyone polls');
    assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '800', Type: 0 }), { retvalue: 0 });
    assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '800', Type: 0, Start: 1 }), { retvalue: 0 });
    clock += 100;
    assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '800', Type: 0 }), { retvalue: 0 });
    assert.equal(await count(), [base[0] + 1, base[1] + 1, base[2] + 1, base[3] + 1, 0]);
    assert.equal(await d.call('deleteuser', { UserID: '800' }), { retvalue: 0 });
    assert.equal(await count(), base);
  } finally {
    await d.close();
  }
});
crud.run();

// ---------------------------------------------------------------------------
const keep = suite('persistence');

keep('users and photos survive a restart', async () => {
  const dir = tmp();
  let d = await device({}, { dir });
  assert.equal(await d.call('adduser', person('4000', { UserName: 'Kept', CardNo: '4000' })), { retvalue: 0 });
  assert.equal(await d.upload('UploadUserPhoto', { UserID: '4000', Photo: { data: png(), name: 'a.png' } }), { retvalue: 0 });
  assert.equal(await d.call('deleteuser', { UserID: '3' }), { retvalue: 0 });
  const before = JSON.stringify(d.users());
  await d.close();
  d = await device({}, { dir });
  try {
    assert.is(JSON.stringify(d.users()), before);
    const res = await d.raw('GetUserPhoto', { UserID: '4000' });
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(png()));
  } finally {
    await d.close();
  }
});

keep('a killed simulator loses no acknowledged user and no acknowledged photo', async () => {
  const dir = tmp();
  const storeFile = join(dir, 'store.json');
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures/sim-child.ts'), storeFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((r) => child.once('exit', r));
  const url: string = await new Promise((resolve) => child.stdout!.once('data', (buf) => resolve(String(buf).trim())));
  const token = (await callSimulator(url, 'chklogin', { username: 'admin', password: TEST_ADMIN.password })).token as string;
  const photo = jpeg();
  const form = new FormData();
  form.append('UserID', '1');
  form.append('Photo', new Blob([new Uint8Array(photo)]), 'one.jpg');
  assert.equal(await (await fetch(`${url}/goform/UploadUserPhoto`, { method: 'POST', headers: { 'X-Token': token }, body: form })).json(), { retvalue: 0 });
  const acked: string[] = [];
  const killAt = 10 + Math.floor(Math.random() * 15);
  for (let i = 0; i < 40; i++) {
    const add = callSimulator(url, 'adduser', person(String(7000 + i), { CardNo: String(7000 + i) }), token);
    if (i === killAt) {
      child.kill('SIGKILL');
      await add.catch(() => null);
      break;
    }
    assert.equal(await add, { retvalue: 0 });
    acked.push(String(7000 + i));
  }
  await exited;
  const d = await device({}, { dir });
  try {
    for (const id of acked) assert.ok(d.user(id), `acknowledged user ${id} kept`);
    assert.ok(d.users().length >= 300 + acked.length);
    assert.is(d.user('1')!.Photo, 1);
    assert.ok(Buffer.from(await (await d.raw('GetUserPhoto', { UserID: '1' })).arrayBuffer()).equals(photo));
    assert.ok(JSON.parse(readFileSync(storeFile, 'utf8')).users.length >= 300 + acked.length);
  } finally {
    await d.close();
  }
});
keep.run();
