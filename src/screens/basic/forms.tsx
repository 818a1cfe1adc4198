// The basic-setup settings screens as data (SPEC §2 Basic setup, §3 Device
// and settings): one FormDef per screen for the form engine. Ranges, lengths
// and allowed values come from the contract (contract/settings/basic.ts).
// The route files re-export these through index.ts.
import { useEffect, useMemo, useState } from 'react';
import { i18n } from '@lingui/core';
import { SettingsForm, type FormDef } from '../../form/SettingsForm.tsx';
import { Loading } from '../../ui/Status.tsx';
import { opts, type FieldDef } from '../../form/validation.ts';
import { requestGoform } from '../../api/request.ts';
import { isFixedZone, wallClock } from '../../i18n/zones.ts';
import { DEVICE_LANGUAGES } from '../../../contract/languages.ts';

const screen = (def: FormDef) => () => <SettingsForm def={def} />;

const DATE_FORMAT: FieldDef = { name: 'DateFormat', kind: 'select', label: /*i18n*/ 'basic.dateFormat', options: opts(/*i18n*/ 'basic.df0', /*i18n*/ 'basic.df1', /*i18n*/ 'basic.df2', /*i18n*/ 'basic.df3') };
const TIME_FORMAT: FieldDef = { name: 'TimeFormat', kind: 'radio', label: /*i18n*/ 'basic.timeFormat', options: opts(/*i18n*/ 'basic.h24', /*i18n*/ 'basic.h12') };
// Weekdays by device number (0 Sunday).
const DAYS = [/*i18n*/ 'basic.d0', /*i18n*/ 'basic.d1', /*i18n*/ 'basic.d2', /*i18n*/ 'basic.d3', /*i18n*/ 'basic.d4', /*i18n*/ 'basic.d5', /*i18n*/ 'basic.d6'];

export const Device = screen({
  read: 'SetMachineParam',
  write: 'GetMachineParam',
  fields: [
    { name: 'DeviceID', kind: 'number', label: /*i18n*/ 'basic.deviceId' },
    { name: 'Volume', kind: 'number', label: /*i18n*/ 'basic.volume' },
    { name: 'AdminPwd', kind: 'password', label: /*i18n*/ 'basic.adminPwd' },
  ],
});

function displayForm(lans: readonly string[]): FormDef {
  return {
    read: 'SetTimeParam',
    write: 'GetTimeParam',
    fields: [
      { name: 'Language', kind: 'select', label: /*i18n*/ 'basic.language', options: Object.keys(DEVICE_LANGUAGES).filter((c): c is keyof typeof DEVICE_LANGUAGES => lans.includes(c)).map((value) => ({ value, text: DEVICE_LANGUAGES[value] })) },
      DATE_FORMAT,
      TIME_FORMAT,
      { name: 'PowerSaving', kind: 'radio', label: /*i18n*/ 'basic.powerSaving', options: opts(/*i18n*/ 'basic.off', /*i18n*/ 'basic.saver', /*i18n*/ 'basic.screenOff') },
      { name: 'ScreenInterval', kind: 'number', label: /*i18n*/ 'basic.screenInterval', unit: /*i18n*/ 'basic.sec', dependsOn: { PowerSaving: [1, 2] } },
      { name: 'KeyboardLock', kind: 'switch', label: /*i18n*/ 'basic.keyboardLock' },
    ],
    // SPEC §4: a new device language restarts the device; its reply says so (reboot) and the console signs out.
    confirm: (changed) => (changed.includes('Language') ? /*i18n*/ 'basic.langRestart' : null),
  };
}

/** Display: the language list is the one the device offers (getLanList). */
export function Display() {
  const [lans, setLans] = useState<readonly string[]>();
  useEffect(() => {
    const all = Object.keys(DEVICE_LANGUAGES);
    requestGoform('getLanList').then((r) => setLans(r.lans ?? all), () => setLans(all));
  }, []);
  const def = useMemo(() => lans && displayForm(lans), [lans]);
  return def ? <SettingsForm def={def} /> : <Loading />;
}

export const IdentifyMode = screen({
  read: 'SetIdentifyParam',
  write: 'GetIdentifyParam',
  fields: [
    {
      name: 'IdentifyMode',
      kind: 'select',
      label: /*i18n*/ 'route.identifyMode',
      options: opts(/*i18n*/ 'basic.im0', /*i18n*/ 'basic.im1', /*i18n*/ 'basic.im2', /*i18n*/ 'basic.im3', /*i18n*/ 'basic.im4', /*i18n*/ 'basic.im5', /*i18n*/ 'basic.im6'),
    },
  ],
});

export const FingerPrint = screen({
  read: 'SetFPCompareParam',
  write: 'GetFPCompareParam',
  fields: [{ name: 'FPPrecision', kind: 'radio', label: /*i18n*/ 'route.fingerPrint', options: opts(/*i18n*/ 'basic.fp0', /*i18n*/ 'basic.fp1', /*i18n*/ 'basic.fp2') }],
});

const MANUAL = { Mode: [0] };
export const TimeSetting = screen({
  read: 'SetDateTimeParam',
  write: 'GetDateTimeParam',
  fields: [
    { name: 'Mode', kind: 'radio', label: /*i18n*/ 'basic.timeMode', options: opts(/*i18n*/ 'basic.manual', /*i18n*/ 'basic.auto') },
    { name: 'Date', kind: 'date', label: /*i18n*/ 'basic.date', dependsOn: MANUAL },
    { name: 'Time', kind: 'time', label: /*i18n*/ 'basic.time', dependsOn: MANUAL },
    { name: 'NtpServer', kind: 'text', label: /*i18n*/ 'basic.ntpServer', dependsOn: { Mode: [1] }, required: true },
    { name: 'TimeZone', kind: 'zone', label: /*i18n*/ 'basic.zone' },
    DATE_FORMAT,
    TIME_FORMAT,
  ],
  // This computer's clock as the wall clock of the zone on the form (the device's, or the one chosen), not the browser's.
  fill: [{ label: /*i18n*/ 'basic.fromComputer', values: (v) => wallClock(String(v.TimeZone), Date.now()), dependsOn: MANUAL }],
});

// DST: the month serves both formats; day for the date format, week and weekday for the week format.
const WEEKS = opts(/*i18n*/ 'basic.w1', /*i18n*/ 'basic.w2', /*i18n*/ 'basic.w3', /*i18n*/ 'basic.w4', /*i18n*/ 'basic.w5', /*i18n*/ 'basic.w6', /*i18n*/ 'basic.w7', /*i18n*/ 'basic.w8').map((o) => ({ ...o, value: +o.value + 1 }));
const WEEKDAYS = opts(...DAYS);
const dstEdge = (edge: string, month: string, day: string, week: string, weekday: string): FieldDef[] => [
  { name: `${edge}Month`, kind: 'number', label: month, dependsOn: { Mode: [1, 2] } },
  { name: `${edge}Day`, kind: 'number', label: day, dependsOn: { Mode: [1] } },
  { name: `${edge}Week`, kind: 'select', label: week, options: WEEKS, dependsOn: { Mode: [2] } },
  { name: `${edge}Weekday`, kind: 'select', label: weekday, options: WEEKDAYS, dependsOn: { Mode: [2] } },
];
const dst: FormDef = {
  read: 'SetDSTParam',
  write: 'GetDSTParam',
  fields: [
    { name: 'Mode', kind: 'radio', label: /*i18n*/ 'route.dst', options: opts(/*i18n*/ 'basic.off', /*i18n*/ 'basic.byDate', /*i18n*/ 'basic.byWeek') },
    { name: 'Offset', kind: 'number', label: /*i18n*/ 'basic.dstOffset', unit: /*i18n*/ 'basic.hours', dependsOn: { Mode: [1, 2] } },
    ...dstEdge('Start', /*i18n*/ 'basic.startMonth', /*i18n*/ 'basic.startDay', /*i18n*/ 'basic.startWeek', /*i18n*/ 'basic.startWeekday'),
    ...dstEdge('End', /*i18n*/ 'basic.endMonth', /*i18n*/ 'basic.endDay', /*i18n*/ 'basic.endWeek', /*i18n*/ 'basic.endWeekday'),
  ],
};
/** DST: with a zone of its own rules (Europe/Berlin) these settings do not apply, and the screen says so (docs/API.md, DSTParam). */
export function Dst() {
  const [zone, setZone] = useState('');
  useEffect(() => {
    requestGoform('SetDateTimeParam').then((r) => setZone(String(r.TimeZone ?? '')), () => {});
  }, []);
  return (
    <SettingsForm def={dst}>
      {zone && !isFixedZone(zone) && (
        <p className="unit" role="note">
          {i18n._('basic.dstZone', { zone })}
        </p>
      )}
    </SettingsForm>
  );
}

const statusChange: FormDef = {
  read: 'SetStatusChangeInfo',
  write: 'GetStatusChangeInfo',
  // A start time per weekday, Monday first: fields Mon ... Sun.
  fields: [{ name: 'Week', kind: 'weekdays', label: /*i18n*/ 'acc.day', cols: [{ suffix: '', label: /*i18n*/ 'basic.changeAt', kind: 'time' }] }],
};
export const StatusChange = () => (
  <SettingsForm def={statusChange}>
    <p className="unit">{i18n._('basic.statusHint')}</p>
  </SettingsForm>
);

const PRINTING = { PrintSwitch: [1] };
export const Print = screen({
  read: 'SetPrintParam',
  write: 'GetPrintParam',
  fields: [
    { name: 'PrintSwitch', kind: 'switch', label: /*i18n*/ 'basic.print' },
    {
      name: 'BaudRate',
      kind: 'select',
      label: /*i18n*/ 'basic.baud',
      dependsOn: PRINTING,
      options: [9600, 19200, 38400, 57600, 115200].map((value) => ({ value, text: String(value) })),
    },
    { name: 'Encoding', kind: 'select', label: /*i18n*/ 'basic.encoding', dependsOn: PRINTING, options: ['UTF-8', 'GB18030', 'Big5'].map((text, value) => ({ value, text })) },
    { name: 'UnitName', kind: 'text', label: /*i18n*/ 'basic.unitName', dependsOn: PRINTING },
    { name: 'UnitAddress', kind: 'text', label: /*i18n*/ 'basic.unitAddress', dependsOn: PRINTING },
    { name: 'UnitTaxTel', kind: 'text', label: /*i18n*/ 'basic.unitTaxTel', dependsOn: PRINTING },
  ],
});

const STATUSES = [/*i18n*/ 'basic.s0', /*i18n*/ 'basic.s1', /*i18n*/ 'basic.s2', /*i18n*/ 'basic.s3', /*i18n*/ 'basic.s4', /*i18n*/ 'basic.s5', /*i18n*/ 'basic.s6', /*i18n*/ 'basic.s7'];
export const ApplyStatus = screen({
  read: 'SetApplyParam',
  write: 'GetApplyParam',
  fields: STATUSES.map((label, i): FieldDef => ({ name: `Status${i}`, kind: 'text', label })),
});

export const WorkMode = screen({
  read: 'SetWorkModeSwitch',
  write: 'GetWorkModeSwitch',
  fields: [{ name: 'WorkMode', kind: 'radio', label: /*i18n*/ 'route.workMode', options: opts(/*i18n*/ 'basic.wm0', /*i18n*/ 'basic.wm1', /*i18n*/ 'basic.wm2') }],
});

/** Authorization modes, for the readers the device has (function list keys wiegand, bluetooth). */
export function authModeForm(wiegand: boolean, bluetooth: boolean): FormDef {
  const modes = opts(/*i18n*/ 'basic.any', /*i18n*/ 'basic.authOnly');
  const fields: FieldDef[] = [];
  if (wiegand) fields.push({ name: 'WiegandAuth', kind: 'radio', label: /*i18n*/ 'basic.wiegandAuth', options: modes });
  if (bluetooth) fields.push({ name: 'BluetoothAuth', kind: 'radio', label: /*i18n*/ 'basic.bleAuth', options: modes });
  return { read: 'SetWorkModeSwitch', write: 'GetWorkModeSwitch', fields };
}
