// Time zones (SPEC §3: number, start and end per weekday), one zone at a
// time as a weekday table.
import { SettingsForm, type FormDef } from '../../form/SettingsForm.tsx';
import { DAY_KEYS, type Problem, type Values } from '../../form/validation.ts';

const def: FormDef = {
  read: 'SetTimeIntervalInfo',
  write: 'GetTimeIntervalInfo',
  key: { name: 'ZoneNum', label: /*i18n*/ 'acc.zoneNum' },
  fields: [
    {
      name: 'Week',
      kind: 'weekdays',
      label: /*i18n*/ 'acc.day',
      cols: [
        { suffix: 'Start', label: /*i18n*/ 'acc.start', kind: 'time' },
        { suffix: 'End', label: /*i18n*/ 'acc.end', kind: 'time' },
      ],
    },
  ],
  check: (v: Values) => {
    const out: Record<string, Problem> = {};
    for (const d of DAY_KEYS) if (String(v[`${d}End`]) < String(v[`${d}Start`])) out[`${d}End`] = { id: /*i18n*/ 'acc.endBeforeStart' };
    return out;
  },
};

export default function AdvTimezone() {
  return <SettingsForm def={def} />;
}
