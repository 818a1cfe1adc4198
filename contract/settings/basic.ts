// Basic setup pairs (SPEC §2 Basic setup, §3 Device and settings), and the
// Wiegand pairing and Wiegand / Bluetooth authorization calls (SPEC §3, §4, §7).
// Where SPEC does not show a field, the choice is said in its `doc`.
import { DAY_PATTERN, pair, type CallSpec, type Field, type Fields } from '../fields.ts';
import { DEVICE_LANGUAGES } from '../languages.ts';


const HHMM = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
const MAC = '^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$';
/** Some text, no leading or trailing blank. */
const NAME = '^\\S(.*\\S)?$';

const dateFormat = {
  kind: 'int',
  values: [0, 1, 2, 3],
  doc: 'Date format on the terminal and in records: 0 YYYY-MM-DD, 1 MM/DD/YYYY, 2 DD/MM/YYYY, 3 YYYY/MM/DD. One setting, shared by TimeParam and DateTimeParam.',
} as const satisfies Field;
const timeFormat = {
  kind: 'int',
  values: [0, 1],
  doc: 'Clock format: 0 24-hour, 1 12-hour. One setting, shared by TimeParam and DateTimeParam.',
} as const satisfies Field;
const weekday = (when: string) => ({ kind: 'string', pattern: HHMM, doc: `Start time of the status change on ${when} (HH:MM): from then on the terminal's default attendance status is OUT; before it, IN.` }) as const satisfies Field;
const month = (edge: string) => ({ kind: 'int', min: 1, max: 12, doc: `Month DST ${edge} (1 January to 12 December); used by both formats.` }) as const satisfies Field;
const day = (edge: string) => ({ kind: 'int', min: 1, max: 31, doc: `Date format: day of the month DST ${edge}. The device answers 10005 naming this field for a day the month does not have (29 February is accepted).` }) as const satisfies Field;
const week = (edge: string) => ({ kind: 'int', values: [1, 2, 3, 4, 5, 6, 7, 8], doc: `Week format: week of the month DST ${edge}: 1 to 6, 7 the last week, 8 the penultimate week.` }) as const satisfies Field;
const wday = (edge: string) => ({ kind: 'int', min: 0, max: 6, doc: `Week format: weekday DST ${edge} (0 Sunday to 6 Saturday).` }) as const satisfies Field;
const status = (code: number, factory: string) => ({ kind: 'string', maxLength: 16, pattern: NAME, doc: `Name of attendance status ${code} (factory name ${factory}), 1 to 16 characters, shown on the terminal and in records.` }) as const satisfies Field;
const authMode = (what: string) => ({ kind: 'int', values: [0, 1], optional: true, doc: `Authorization mode of ${what}: 0 any paired device works, 1 only authorized devices work (see the authorization list). Absent on write: unchanged.` }) as const satisfies Field;

/** One Wiegand or Bluetooth device the terminal knows (SPEC §3 authorization item). Device text: shown as text. */
const authItem = {
  Mac: { kind: 'string', pattern: MAC, doc: 'MAC address; identifies the device in the other calls.' },
  Model: { kind: 'string', maxLength: 32, doc: 'Model number.' },
  MachineNo: { kind: 'int', min: 1, max: 99999999, doc: 'Machine number (device ID) the device reports.' },
  Route: { kind: 'int', values: [1, 2], doc: 'Wiegand route (port) the device is paired on, 1 or 2.' },
  Status: { kind: 'int', values: [0, 1], doc: 'Authorization status: 0 unauthorized, 1 authorized.' },
} as const satisfies Fields;
const authList = { list: { kind: 'objects', fields: authItem, doc: 'Known devices, in pairing order (at most 16).' } } as const satisfies Fields;
const macs = { kind: 'strings', doc: 'MAC addresses of the selected devices (at least one). The device answers 10003 for an empty list and 10005 naming `Macs` for an address it does not know; nothing changes then.' } as const satisfies Field;
const authorize = {
  Macs: macs,
  Status: { kind: 'int', values: [0, 1], doc: '1 authorize the selected devices, 0 cancel their authorization.' },
} as const satisfies Fields;

/** An IANA name, or the fixed offset a store from before names holds. */
const ZONE_NAME = '^[A-Z][A-Za-z0-9_+-]*(/[A-Z][A-Za-z0-9_+-]*)*$';
const OFFSET = '(-(0[0-9]|1[01]):(00|30)|-12:00|\\+(0[0-9]|1[0-3]):(00|15|30|45)|\\+14:00)';
const zone = {
  kind: 'string',
  maxLength: 64,
  pattern: `${ZONE_NAME}|^${OFFSET}$`,
  format: 'zone',
  doc:
    "The device's time zone: an IANA tz database name (`Europe/Berlin`, `Asia/Tokyo`, `UTC`, `Etc/GMT-9`), which the device keeps as it is and reads Date and Time in. " +
    'A name its tz database does not have is refused (10005 naming TimeZone), so is any other text. The offset from UTC follows from the name at each moment, daylight saving included; the read answers it as UtcOffset. ' +
    'A store written before names (an offset from UTC, -12:00 to +14:00, e.g. +08:00, -03:30, +05:45) is answered as it is, and that offset is taken back unchanged on write, so a backup or a script that writes back what it read still works: it is a fixed-offset zone. ' +
    'The console offers the names of its browser (Intl.supportedValuesOf), each with its offset now, plus UTC and Etc/GMT-14 to Etc/GMT+12; a stored offset or a name the browser lacks is shown as it is, first in the list, until another is chosen. ' +
    'Daylight saving time: a zone with rules of its own (every region name, such as Europe/Berlin, also one without DST now, such as Asia/Tokyo) follows those rules, and DSTParam is kept but does not apply; ' +
    "DSTParam's rules apply only with a fixed-offset zone: UTC, Etc/*, or a stored offset.",
} as const satisfies Field;

/** The date and time pair: the read also answers the offset the zone implies now (UtcOffset), which the write does not take. */
function dateTime<const F extends Fields>(fields: F) {
  const p = pair('DateTimeParam', 'Basic setup', 'date and time', fields);
  const UtcOffset = {
    kind: 'string',
    pattern: '^[+-]([01][0-9]|2[0-3]):[0-5][0-9]$',
    doc: "Read only: the offset from UTC (±HH:MM) TimeZone implies at the device's clock now, daylight saving included (+09:00 for Asia/Tokyo; +02:00 for Europe/Berlin in summer, +01:00 in winter; a fixed-offset zone's offset plus DSTParam's Offset while its DST period runs, up to +17:00). A clock set centuries back reads the zone's local mean time then (-04:19 for America/Moncton in 0699), to the minute. Not written: a write that sends it is refused (10005), like any field the write does not name.",
  } as const satisfies Field;
  return { ...p, SetDateTimeParam: { ...p.SetDateTimeParam, response: { ...fields, UtcOffset } } };
}

function call<const M extends 'GET' | 'POST', const P extends string, const E extends CallSpec['encoding'], const Q extends Fields, const R extends Fields>(
  method: M,
  path: P,
  encoding: E,
  purpose: string,
  request: Q,
  response: R,
) {
  return { method, path, area: 'Wiegand and Bluetooth', purpose, encoding, auth: true, request, response } as const;
}

export const BASIC_PAIRS = {
  ...pair('KaoqinParam', 'Basic setup', 'attendance settings', {
    RepeatTime: { kind: 'int', min: 0, max: 250, doc: 'Duplicate punch range in minutes: a second punch within it is not recorded again (SPEC §5: 0 to 250).' },
    AlarmLogs: { kind: 'int', min: 0, max: 5000, doc: 'Warn when this many free record slots are left (SPEC §5: 0 to 5000).' },
  }),
  ...pair('MachineParam', 'Basic setup', 'device settings (device ID, volume, admin password)', {
    DeviceID: { kind: 'int', min: 1, max: 99999999, doc: 'Device ID (machine number) by which management software and readers address the terminal, 1 to 99999999.' },
    Volume: { kind: 'int', min: 0, max: 10, doc: 'Speaker volume, 0 (silent) to 10.' },
    AdminPwd: { kind: 'string', maxLength: 8, pattern: '^[0-9]{1,8}$', doc: "Password of the terminal's own menu on its keypad, 1 to 8 digits (not the console's sign-in password)." },
  }),
  ...pair('TimeParam', 'Basic setup', 'display settings', {
    Language: {
      kind: 'string',
      values: Object.keys(DEVICE_LANGUAGES) as (keyof typeof DEVICE_LANGUAGES)[],
      doc: "Language of the terminal's screen (SPEC §1 codes); the console offers those getLanList answers. A change restarts the device: the reply carries `reboot: true`.",
    },
    DateFormat: dateFormat,
    TimeFormat: timeFormat,
    PowerSaving: { kind: 'int', values: [0, 1, 2], doc: 'Power saving: 0 disabled, 1 screen saver, 2 screen off (close saver).' },
    ScreenInterval: { kind: 'int', min: 10, max: 3600, doc: 'Idle seconds before power saving starts, 10 to 3600.' },
    KeyboardLock: { kind: 'flag', doc: '1: the keypad is locked while idle.' },
  }),
  ...pair('IdentifyParam', 'Basic setup', 'identify mode', {
    IdentifyMode: {
      kind: 'int',
      values: [0, 1, 2, 3, 4, 5, 6],
      doc: 'How the terminal identifies a person by default (a user may have their own): 0 any enrolled method, 1 fingerprint, 2 face, 3 card, 4 card and fingerprint, 5 card and face, 6 card and password.',
    },
  }),
  ...pair('FPCompareParam', 'Basic setup', 'fingerprint precision', {
    FPPrecision: { kind: 'int', values: [0, 1, 2], doc: 'Fingerprint matching precision: 0 normal, 1 precision, 2 advanced (strictest).' },
  }),
  ...dateTime({
    Mode: { kind: 'int', values: [0, 1], doc: 'Time source: 0 manual (Date and Time set the clock), 1 NTP (NtpServer sets it).' },
    Date: { kind: 'string', pattern: DAY_PATTERN, format: 'date', doc: "Read: the device's date now (YYYY-MM-DD). Write with Mode 0: sets the clock together with Time." },
    Time: { kind: 'string', pattern: HHMM, doc: "Read: the device's time now (HH:MM). Write with Mode 0: sets the clock; the device keeps its clock when Date and Time are what it answered (this minute or the last), so saving other fields does not move it." },
    DateFormat: dateFormat,
    TimeFormat: timeFormat,
    NtpServer: {
      kind: 'string',
      optional: true,
      maxLength: 64,
      pattern: '^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$',
      doc: 'NTP server (host name or IPv4 address). Required with Mode 1: the device answers 10003 naming it otherwise.',
    },
    TimeZone: zone,
  }),
  ...pair('DSTParam', 'Basic setup', 'daylight saving time', {
    Mode: { kind: 'int', values: [0, 1, 2], doc: "Daylight saving time: 0 disabled, 1 date format (month and day), 2 week format (month, week and weekday). Applies only while DateTimeParam's TimeZone is a fixed-offset zone (UTC, Etc/*, a stored offset): from 00:00 of the start day to 00:00 of the end day, standard time (a start after the end spans the new year). With a region zone (Europe/Berlin) the zone's own rules apply and these are kept unused; the console's DST screen says so." },
    Offset: { kind: 'int', min: 0, max: 3, doc: 'Hours the clock moves forward while DST is on, 0 to 3 (SPEC §9: +0 to +3).' },
    StartMonth: month('starts'),
    StartDay: day('starts'),
    StartWeek: week('starts'),
    StartWeekday: wday('starts'),
    EndMonth: month('ends'),
    EndDay: day('ends'),
    EndWeek: week('ends'),
    EndWeekday: wday('ends'),
  }),
  ...pair('StatusChangeInfo', 'Basic setup', 'status change times', {
    Mon: weekday('Monday'),
    Tue: weekday('Tuesday'),
    Wed: weekday('Wednesday'),
    Thu: weekday('Thursday'),
    Fri: weekday('Friday'),
    Sat: weekday('Saturday'),
    Sun: weekday('Sunday'),
  }),
  ...pair('PrintParam', 'Basic setup', 'print settings', {
    PrintSwitch: { kind: 'flag', doc: '1: print a receipt for each punch on the attached printer.' },
    BaudRate: { kind: 'int', values: [9600, 19200, 38400, 57600, 115200], doc: 'Serial speed of the printer, in baud.' },
    Encoding: { kind: 'int', values: [0, 1, 2], doc: 'Character encoding sent to the printer: 0 UTF-8, 1 GB18030, 2 Big5.' },
    UnitName: { kind: 'string', maxLength: 32, doc: 'Company (unit) name printed at the head of the receipt.' },
    UnitAddress: { kind: 'string', maxLength: 64, doc: 'Unit address printed on the receipt.' },
    UnitTaxTel: { kind: 'string', maxLength: 20, pattern: '^[0-9A-Za-z +()./-]*$', doc: 'Unit tax number or telephone printed on the receipt: digits, letters, spaces and + ( ) . / -.' },
  }),
  ...pair('ApplyParam', 'Basic setup', 'attendance status names', {
    Status0: status(0, 'IN'),
    Status1: status(1, 'OUT'),
    Status2: status(2, 'status1'),
    Status3: status(3, 'status2'),
    Status4: status(4, 'status3'),
    Status5: status(5, 'status4'),
    Status6: status(6, 'status5'),
    Status7: status(7, 'status6'),
  }),
  ...pair('WorkModeSwitch', 'Basic setup', 'work mode and authorization modes (every field optional on write: an absent field keeps its value)', {
    WorkMode: { kind: 'int', values: [0, 1, 2], optional: true, doc: 'What the terminal does with a recognized person: 0 time attendance (record only), 1 access control (open the door), 2 both. Absent on write: unchanged.' },
    WiegandAuth: authMode('Wiegand readers'),
    BluetoothAuth: authMode('Bluetooth devices'),
  }),
  // Wiegand pairing and the authorization lists (SPEC §3, §4). Lists answer at most 16 devices.
  AnvizWiegandMatch: call(
    'GET',
    'AnvizWiegandMatch',
    'query',
    'Wiegand pairing on a route. The first call starts listening for a reader and answers retvalue "wait"; ask again (the console polls every 0.5 s) until retvalue 0, which carries the paired reader. It joins the Wiegand authorization list unauthorized (or keeps its place if already known). Answers 1 with msg `msg.addUpToLimit` when the list is full.',
    { Route: { kind: 'int', values: [1, 2], doc: 'Route (Wiegand port) to pair on, 1 or 2.' } },
    {
      Mac: { ...authItem.Mac, optional: true },
      Model: { ...authItem.Model, optional: true },
      MachineNo: { ...authItem.MachineNo, optional: true },
    },
  ),
  SetAnvizWiegandAuthorize: call('POST', 'SetAnvizWiegandAuthorize', 'query', 'Read the Wiegand authorization list (a POST whose only parameter, the timestamp, travels in the query).', {}, authList),
  GetAnvizWiegandAuthorize: call('POST', 'GetAnvizWiegandAuthorize', 'json', 'Authorize the selected Wiegand readers, or cancel their authorization.', authorize, {}),
  SetBluetoothAuthorize: call('POST', 'SetBluetoothAuthorize', 'json', 'Read the Bluetooth authorization list.', {}, authList),
  GetBluetoothAuthorize: call('POST', 'GetBluetoothAuthorize', 'json', 'Authorize the selected Bluetooth devices, or cancel their authorization.', authorize, {}),
  DeleteSomeWiegand: call('POST', 'DeleteSomeWiegand', 'json', 'Delete the selected Wiegand readers from the list (they must pair again).', { Macs: macs }, {}),
  DeleteSomeBluetooth: call('POST', 'DeleteSomeBluetooth', 'json', 'Delete the selected Bluetooth devices from the list.', { Macs: macs }, {}),
};
