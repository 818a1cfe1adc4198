// The settings-form engine's rules (issue: settings): visibility, validation,
// change tracking and payloads, with constraints from the contract.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bindFields, changed, checkField, checkForm, DAY_KEYS, isIPv4, isMask, payload, valueFields, visible, type FieldDef } from '../../src/form/validation.ts';
import { CALLS, type Fields } from '../../contract/index.ts';

const contract: Fields = {
  Mode: { kind: 'int', values: [0, 1], doc: '' },
  IP: { kind: 'string', doc: '' },
  Mask: { kind: 'string', doc: '' },
  Port: { kind: 'int', min: 1, max: 65535, doc: '' },
  Name: { kind: 'string', maxLength: 8, doc: '' },
  Note: { kind: 'string', optional: true, doc: '' },
  At: { kind: 'string', doc: '' },
};
const defs: FieldDef[] = [
  { name: 'Mode', kind: 'select', label: 'x', options: [{ value: 0, label: 'dhcp' }, { value: 1, label: 'static' }] },
  { name: 'IP', kind: 'ip', label: 'x', dependsOn: { Mode: [1] } },
  { name: 'Mask', kind: 'mask', label: 'x', dependsOn: { Mode: [1] } },
  { name: 'Port', kind: 'port', label: 'x' },
  { name: 'Name', kind: 'text', label: 'x' },
  { name: 'Note', kind: 'text', label: 'x' },
  { name: 'At', kind: 'time', label: 'x' },
];
const fields = bindFields(defs, contract);

test('IPv4 addresses and subnet masks', () => {
  for (const ok of ['0.0.0.0', '192.168.1.10', '255.255.255.255']) assert.ok(isIPv4(ok), ok);
  for (const bad of ['256.1.1.1', '1.2.3', '01.2.3.4', '1.2.3.4.5', 'a.b.c.d', ' 1.2.3.4']) assert.not.ok(isIPv4(bad), bad);
  for (const ok of ['255.255.255.0', '255.255.0.0', '255.255.255.252', '128.0.0.0']) assert.ok(isMask(ok), ok);
  for (const bad of ['255.0.255.0', '0.0.0.0', '255.255.255.1', '255.255.256.0']) assert.not.ok(isMask(bad), bad);
});

test('dependsOn: a field shows only while another has a given value (LuCI depends)', () => {
  const ip = fields.find((f) => f.name === 'IP')!;
  assert.not.ok(visible(ip, { Mode: 0 }));
  assert.ok(visible(ip, { Mode: 1 }));
  assert.ok(visible(ip, { Mode: '1' }), 'values from a select compare as text');
  assert.is(checkField(ip, { Mode: 0, IP: 'junk' }), null, 'a hidden field is not validated');
  assert.equal(checkField(ip, { Mode: 1, IP: 'junk' }), { id: 'form.ip' });
});

test('rules: required, ranges from the contract, ports, masks, lengths, times, choices', () => {
  const base = { Mode: 1, IP: '10.0.0.2', Mask: '255.255.255.0', Port: '80', Name: 'door', Note: '', At: '08:30' };
  assert.equal(checkForm(fields, base), {});
  assert.equal(checkForm(fields, { ...base, Port: '0' }), { Port: { id: 'form.port' } });
  assert.equal(checkForm(fields, { ...base, Port: '65536' }), { Port: { id: 'form.port' } });
  assert.equal(checkForm(fields, { ...base, Mask: '255.0.255.0' }), { Mask: { id: 'form.mask' } });
  assert.equal(checkForm(fields, { ...base, Name: '' }), { Name: { id: 'form.required' } });
  assert.equal(checkForm(fields, { ...base, Name: 'far too long' }), { Name: { id: 'form.maxLength', values: { max: 8 } } });
  assert.equal(checkForm(fields, { ...base, At: '24:00' }), { At: { id: 'form.time' } });
  assert.equal(checkForm(fields, { ...base, Mode: 2 }), { Mode: { id: 'form.choice' } });
});

test('the attendance ranges of SPEC §5 come from the contract', () => {
  const att = bindFields(
    [
      { name: 'RepeatTime', kind: 'number', label: 'x' },
      { name: 'AlarmLogs', kind: 'number', label: 'x' },
    ],
    CALLS.GetKaoqinParam.request,
  );
  assert.equal(checkForm(att, { RepeatTime: 250, AlarmLogs: 5000 }), {});
  assert.equal(checkForm(att, { RepeatTime: 0, AlarmLogs: 0 }), {});
  assert.equal(checkForm(att, { RepeatTime: 251, AlarmLogs: 0 }), { RepeatTime: { id: 'form.range', values: { min: 0, max: 250 } } });
  assert.equal(checkForm(att, { RepeatTime: 1, AlarmLogs: 5001 }), { AlarmLogs: { id: 'form.range', values: { min: 0, max: 5000 } } });
  assert.equal(checkForm(att, { RepeatTime: '1.5', AlarmLogs: -1 }).RepeatTime, { id: 'form.integer' });
});

test('what changed, and what is sent', () => {
  const initial = { Mode: 0, IP: '', Mask: '', Port: 80, Name: 'a', Note: '', At: '08:00' };
  assert.equal(changed(fields, initial, { ...initial, Port: '80' }), [], 'same value typed back is no change');
  assert.equal(changed(fields, initial, { ...initial, Port: '81', Name: 'b' }), ['Port', 'Name']);
  const sent = payload(fields, { ...initial, Port: '81' }, contract);
  assert.is(sent.Port, 81, 'numbers as numbers');
  assert.is(sent.Mode, 0);
  assert.not.ok('Note' in sent, 'an empty optional field is left out when nothing was loaded for it');
});

test('a hidden field sends what was loaded; an optional text can be cleared', () => {
  const initial = { Mode: 1, IP: '10.0.0.2', Mask: '255.255.255.0', Port: 80, Name: 'a', Note: 'old', At: '08:00' };
  const edited = { ...initial, IP: 'junk', Mode: 0, Note: '' };
  const sent = payload(fields, edited, contract, initial);
  assert.is(sent.IP, '10.0.0.2', 'typed into a field that is now hidden: the loaded value goes');
  assert.is(sent.Mode, 0);
  assert.is(sent.Note, '', 'cleared optional text is sent empty');
  assert.equal(checkForm(fields, edited), {}, 'and the hidden junk does not block the save');
});

test('a form field missing from the contract is a programming error', () => {
  assert.throws(() => bindFields([{ name: 'Nope', kind: 'text', label: 'x' }], contract), /not in the contract/);
});

test('a weekday table is one field whose cells are a field per day and column, Monday first', () => {
  const week: Fields = Object.fromEntries(DAY_KEYS.flatMap((d) => [[`${d}Start`, { kind: 'string', doc: '' }], [`${d}End`, { kind: 'string', doc: '' }]]));
  const [table] = bindFields(
    [{ name: 'Week', kind: 'weekdays', label: 'x', cols: [{ suffix: 'Start', label: 's', kind: 'time' }, { suffix: 'End', label: 'e', kind: 'time' }] }],
    week,
  );
  assert.is(table.cells!.length, 7);
  assert.equal(table.cells![0].map((c) => c.name), ['MonStart', 'MonEnd']);
  assert.equal(table.cells![6].map((c) => [c.name, c.day, c.kind]), [['SunStart', 6, 'time'], ['SunEnd', 6, 'time']]);
  const names = valueFields([table]).map((f) => f.name);
  assert.is(names.length, 14);
  const values = Object.fromEntries(names.map((n) => [n, '08:00']));
  assert.equal(checkForm([table], values), {});
  assert.equal(changed([table], values, { ...values, WedEnd: '17:30' }), ['WedEnd']);
  assert.equal(checkForm([table], { ...values, FriStart: '25:00' }), { FriStart: { id: 'form.time' } });
  assert.equal(Object.keys(payload([table], values, week)).sort(), [...names].sort());
  // A cell missing from the contract is the same programming error as any field.
  assert.throws(() => bindFields([{ name: 'W', kind: 'weekdays', label: 'x', cols: [{ suffix: 'X', label: 'x', kind: 'time' }] }], week), /MonX is not in the contract/);
});

test('date and time in one box: YYYY-MM-DD HH:MM', () => {
  const [f] = bindFields([{ name: 'At', kind: 'datetime', label: 'x' }], { At: { kind: 'string' } });
  assert.is(checkField(f, { At: '2026-06-01 12:00' }), null);
  for (const bad of ['2026-06-01', '2026-06-01T12:00', '2026-13-01 12:00', '2026-06-01 24:00']) assert.equal(checkField(f, { At: bad }), { id: 'form.datetime' }, bad);
});

test.run();
