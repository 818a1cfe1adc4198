// One input of the form engine, for every widget kind: label, box, unit and
// the field's message, wired for assistive tech. Every form in the console
// (settings, numbered records, the add dialog of a list, joining a Wi-Fi
// network) draws its inputs with this.
import { useId } from 'react';
import { i18n } from '@lingui/core';
import type { BoundField, Option, Value } from './validation.ts';
import { zoneList, type Zone } from '../i18n/zones.ts';

/**
 * The zone list, built once from the browser's tz database. A stored zone
 * the list lacks is added: in its place with its offset when the browser
 * knows the name (an alias, Asia/Kolkata for Asia/Calcutta), else first, as
 * the device has it (an offset from before names, a name this browser does
 * not know, or no list at all: Intl.supportedValuesOf missing).
 */
const zones = new Map<string, Zone[]>();
function zoneOptions(stored: string): Option[] {
  const list = zones.get('') ?? zoneList(Date.now());
  zones.set('', list);
  let withStored = zones.get(stored);
  if (!withStored) {
    const alias = stored && !/^[+-]/.test(stored) && !list.some((z) => z.name === stored) && zoneList(Date.now(), [stored]).length;
    withStored = alias ? zoneList(Date.now(), [...list.map((z) => z.name), stored]) : list;
    zones.set(stored, withStored);
  }
  const options = withStored.map((z) => ({ value: z.name, text: z.label }));
  return stored && !withStored.some((z) => z.name === stored) ? [{ value: stored, text: i18n._('form.zoneStored', { zone: stored }) }, ...options] : options;
}

export interface ControlProps {
  f: BoundField;
  value: Value;
  error?: string;
  /** Inside a table: the accessible name, and no visible label. */
  label?: string;
  onValue: (v: Value) => void;
}

const TYPES: Partial<Record<BoundField['kind'], 'password' | 'time' | 'date' | 'datetime-local'>> = { password: 'password', time: 'time', date: 'date', datetime: 'datetime-local' };

export function Control({ f, value, error, label, onValue }: ControlProps) {
  const id = useId();
  const errorId = id + 'e';
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined, 'aria-label': label };
  const message = error && (
    <p className="field-error" id={errorId}>
      {error}
    </p>
  );
  const text = String(value ?? '');
  let box;
  if (f.kind === 'radio')
    return (
      <fieldset className={error ? 'field invalid' : 'field'} aria-describedby={common['aria-describedby']}>
        <legend>{i18n._(f.label)}</legend>
        <div className="choices inline">
          {f.options!.map((o) => (
            <label key={o.value}>
              <input type="radio" name={id} checked={String(o.value) === text} onChange={() => onValue(o.value)} />
              {o.text ?? i18n._(o.label!)}
            </label>
          ))}
        </div>
        {message}
      </fieldset>
    );
  if (f.kind === 'select' || f.kind === 'zone')
    box = (
      // Options keep their type: numbers stay numbers.
      <select {...common} dir={f.kind === 'zone' ? 'ltr' : undefined} value={text} onChange={(e) => onValue(f.options?.find((o) => String(o.value) === e.currentTarget.value)?.value ?? e.currentTarget.value)}>
        {(f.kind === 'zone' ? zoneOptions(text) : f.options!).map((o) => (
          <option key={o.value} value={String(o.value)}>
            {o.text ?? i18n._(o.label!)}
          </option>
        ))}
      </select>
    );
  else if (f.kind === 'switch')
    box = <input {...common} type="checkbox" role="switch" checked={text === '1'} onChange={(e) => onValue(e.currentTarget.checked ? 1 : 0)} />;
  else {
    const numeric = f.kind === 'number' || f.kind === 'port';
    const dt = f.kind === 'datetime';
    const attrs = {
      ...common,
      type: TYPES[f.kind] ?? 'text',
      value: dt ? text.replace(' ', 'T') : text,
      inputMode: numeric ? 'numeric' : f.kind === 'ip' || f.kind === 'mask' ? 'decimal' : undefined,
      // Addresses, numbers, times and IDs read left to right in Arabic too; a name takes its own direction.
      dir: f.kind == 'text' ? 'auto' : 'ltr',
      maxLength: f.maxLength,
      readOnly: f.readOnly,
      autoComplete: f.kind === 'password' ? 'new-password' : 'off',
    };
    box = <input {...(attrs as object)} onInput={(e) => onValue(dt ? e.currentTarget.value.replace('T', ' ') : e.currentTarget.value)} />;
  }
  return (
    <div className={`field${error ? ' invalid' : ''}${f.kind === 'switch' ? ' switch' : ''}`}>
      {!label && <label htmlFor={id}>{i18n._(f.label)}</label>}
      <div className="control">
        {box}
        {f.unit && <span className="unit">{i18n._(f.unit)}</span>}
      </div>
      {message}
    </div>
  );
}
