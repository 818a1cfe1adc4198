// Access control (SPEC §2 Access control and Advanced, §3 Access, §7 Groups
// and periods, §9). SPEC names the entities and a few of their fields; where
// it says "not shown" the fields below are this contract's choice, and each
// `doc` says so.
import { pair, type Area, type Field } from '../fields.ts';

const GROUPS: Area = 'Groups and periods';

const hhmm = { kind: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', doc: '' } as const satisfies Field;
const name = { kind: 'string', maxLength: 16, pattern: '^.*\\S.*$', doc: 'Name, 1 to 16 characters, not only spaces.' } as const satisfies Field;
const dateTime = {
  kind: 'string',
  pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01]) ([01]\\d|2[0-3]):[0-5]\\d$',
  format: 'datetime',
  doc: '',
} as const satisfies Field;

const groupNum = { kind: 'int', min: 1, max: 16, doc: 'Time group number, 1 to 16.' } as const satisfies Field;
const zoneNum = { kind: 'int', min: 1, max: 32, doc: 'Time zone number, 1 to 32.' } as const satisfies Field;
const shiftNum = { kind: 'int', min: 1, max: 8, doc: 'Shift number, 1 to 8 (the shift a user follows).' } as const satisfies Field;
const slot = (n: number) =>
  ({ kind: 'int', min: 0, max: 32, doc: `Time ${n}: a time zone number (1 to 32) during which the group may pass; 0 leaves the slot unused.` }) as const;

/** Period type (SPEC §3 Period): 1 always open (NO), 0 always closed (NC), as the user group codes. */
const periodType = { kind: 'int', values: [0, 1], doc: '1: always-open periods (NO); 0: always-closed periods (NC).' } as const satisfies Field;

const period = {
  Num: { kind: 'int', min: 1, max: 16, doc: 'Period number, 1 to 16 per type, given by the device when the period is added.' },
  Name: name,
  Start: { ...dateTime, doc: 'Start of the first occurrence, "YYYY-MM-DD HH:MM" (device time).' },
  End: { ...dateTime, doc: 'End of the first occurrence, "YYYY-MM-DD HH:MM"; later than Start.' },
  Cycle: { kind: 'int', values: [0, 1, 2, 3, 4], doc: 'How the period repeats: 0 once, 1 every day, 2 every week, 3 every month, 4 every year.' },
} as const;

const workGroup = {
  Num: { kind: 'int', min: 1, max: 16, doc: 'Work group number, 1 to 16, given by the device when the group is added.' },
  Name: name,
  TimeGroup: { ...groupNum, doc: 'The time group (1 to 16) whose time zones the work group may pass in.' },
} as const;

type Day = 'Mon' | 'Tue' | 'Wed' | 'Thu' | 'Fri' | 'Sat' | 'Sun';
function day<const D extends Day>(d: D) {
  return {
    [`${d}Start`]: { ...hhmm, doc: `${d}: start, "HH:MM".` },
    [`${d}End`]: { ...hhmm, doc: `${d}: end, "HH:MM", not before the start. 00:00 to 00:00 closes the day; 00:00 to 23:59 opens all of it.` },
  } as Record<`${D}Start` | `${D}End`, typeof hhmm>;
}

const group = { GroupNum: groupNum, Time1: slot(1), Time2: slot(2), Time3: slot(3), Time4: slot(4) } as const;
const zone = { ZoneNum: zoneNum, ...day('Mon'), ...day('Tue'), ...day('Wed'), ...day('Thu'), ...day('Fri'), ...day('Sat'), ...day('Sun') } as const;
const shift = {
  ShiftNum: shiftNum,
  Name: { ...name, doc: 'Shift name, 1 to 16 characters.' },
  OnDuty: { ...hhmm, doc: 'Work starts, "HH:MM".' },
  OffDuty: { ...hhmm, doc: 'Work ends, "HH:MM" (earlier than OnDuty: the shift ends the next day).' },
  LateGrace: { kind: 'int', min: 0, max: 120, doc: 'Minutes after OnDuty before a punch counts as late (report column "late").' },
  EarlyGrace: { kind: 'int', min: 0, max: 120, doc: 'Minutes before OffDuty within which leaving does not count as early.' },
} as const;

/**
 * A numbered record (time group, time zone, shift): GET Set<Name>?<key>=n
 * answers record n, POST Get<Name> writes one record (JSON body).
 */
function numbered<const N extends string, const K extends string, const F extends Record<K, Field> & Record<string, Field>>(
  n: N,
  purpose: string,
  key: K,
  fields: F,
) {
  return {
    [`Set${n}`]: { method: 'GET', path: `Set${n}`, area: GROUPS, purpose: `Read ${purpose} number \`${key}\`.`, encoding: 'query', auth: true, request: { [key]: fields[key] }, response: fields },
    [`Get${n}`]: { method: 'POST', path: `Get${n}`, area: GROUPS, purpose: `Write ${purpose} \`${key}\`; the other numbers keep their values.`, encoding: 'json', auth: true, request: fields, response: {} },
  } as { [P in `Set${N}`]: { method: 'GET'; path: P; area: Area; purpose: string; encoding: 'query'; auth: true; request: Pick<F, K>; response: F } } & {
    [P in `Get${N}`]: { method: 'POST'; path: P; area: Area; purpose: string; encoding: 'json'; auth: true; request: F; response: {} };
  };
}

export const ACCESS_PAIRS = {
  ...pair('AccessControl', 'Access control', 'access control (relay, door sensor, Wiegand output, card number, tamper, power)', {
    RelayMode: { kind: 'int', values: [0, 1, 2], doc: 'Relay output (SPEC §3): 0 none, 1 ring (drives a bell), 2 door open (drives the lock).' },
    DoorSensor: { kind: 'int', values: [0, 1, 2], doc: 'Door sensor: 0 none, 1 normally open contact, 2 normally closed contact.' },
    RelayDelay: { kind: 'int', min: 1, max: 255, doc: 'Seconds the relay stays on after a pass (SPEC leaves the range open: 1 to 255).' },
    WiegandFormat: {
      kind: 'int',
      values: [0, 1, 2, 3, 4, 5, 6, 7, 8],
      doc: 'Wiegand output format (SPEC §3, nine options): 0 Wiegand 26, 1 vendor Wiegand, 2 fixed Wiegand 26, 3 card 26 big end, 4 card 26 little end, 5 card 34 big end, 6 card 34 little end, 7 card 66 big end, 8 card 66 little end.',
    },
    CardDisplay: { kind: 'int', values: [0, 1], doc: 'Card number byte order on display: 0 big end, 1 little end.' },
    CardLength: { kind: 'int', values: [4, 3], doc: 'Card number length in bytes: 4 or 3 (SPEC §9).' },
    TamperAlarm: { kind: 'flag', doc: '1: the tamper switch raises the alarm.' },
    Power12V: { kind: 'flag', doc: '1: the 12 V supply output is on.' },
  }),
  ...numbered('GroupInfo', 'a time group (SPEC §3: group number with time1 to time4, §9: 4 slots)', 'GroupNum', group),
  ...numbered('TimeIntervalInfo', 'a time zone (SPEC §3: number, start and end per weekday)', 'ZoneNum', zone),
  ...numbered('ShiftsInfo', 'a shift (SPEC: fields not shown; chosen: name, on and off duty, late and early allowances)', 'ShiftNum', shift),
  ...pair('CardInfo', 'Access control', 'card settings (SPEC: show, identify, read mode; the fields are this contract\'s choice)', {
    ShowCard: { kind: 'flag', doc: '1: the terminal shows the card number when a card is read.' },
    CardIdentify: { kind: 'flag', doc: '1: a card alone identifies its user; 0: cards are not accepted for identification.' },
    ReadMode: { kind: 'int', values: [0, 1], doc: 'What is read from a card: 0 its serial number, 1 the number stored in an encrypted sector.' },
    Sector: { kind: 'int', min: 0, max: 15, doc: 'Sector holding the number when ReadMode is 1 (Mifare Classic 1K: 0 to 15).' },
  }),

  // Periods (always open, always closed) and work (universal) groups
  SetGroupTime: {
    method: 'GET',
    path: 'SetGroupTime',
    area: GROUPS,
    purpose: 'Read the always-open or always-closed periods.',
    encoding: 'query',
    auth: true,
    request: { Type: periodType },
    response: { Periods: { kind: 'objects', doc: 'The periods of that type, by number.', fields: period } },
  },
  AddGroupTime: {
    method: 'POST',
    path: 'AddGroupTime',
    area: GROUPS,
    purpose: 'Add a period (serialized payload). The device gives it the lowest free number; with all 16 taken it answers 10004 with msg `msg.addUpToLimit`. End not after Start: 10005 with field `End`.',
    encoding: 'form',
    auth: true,
    request: { Type: periodType, Name: period.Name, Start: period.Start, End: period.End, Cycle: period.Cycle },
    response: { Num: period.Num },
  },
  DelSomeGroup: {
    method: 'POST',
    path: 'DelSomeGroup',
    area: GROUPS,
    purpose: 'Delete the selected periods or work groups (serialized payload). A number that does not exist: 10005 with field `Nums`, and nothing is deleted.',
    encoding: 'form',
    auth: true,
    request: {
      Type: { kind: 'int', values: [0, 1, 2], doc: '1: always-open periods; 0: always-closed periods; 2: work groups.' },
      Nums: { kind: 'string', pattern: '^[1-9]\\d*(,[1-9]\\d*)*$', doc: 'The numbers to delete, comma-separated ("1,3").' },
    },
    response: {},
  },
  SetUniversalGroup: {
    method: 'GET',
    path: 'SetUniversalGroup',
    area: GROUPS,
    purpose: 'Read the work groups (universal groups; SPEC: fields not shown, chosen: number, name, time group).',
    encoding: 'query',
    auth: true,
    request: {},
    response: { Groups: { kind: 'objects', doc: 'The work groups, by number.', fields: workGroup } },
  },
  GetUniversalGroup: {
    method: 'POST',
    path: 'GetUniversalGroup',
    area: GROUPS,
    purpose: 'Add a work group (serialized payload). The device gives it the lowest free number; with all 16 taken it answers 10004 with msg `msg.addUpToLimit`.',
    encoding: 'form',
    auth: true,
    request: { Name: workGroup.Name, TimeGroup: workGroup.TimeGroup },
    response: { Num: workGroup.Num },
  },
} as const;
