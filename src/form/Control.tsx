// One input of the form engine, for every widget kind: label, box, unit and
// the field's message, wired for assistive tech. Every form in the console
// (settings, numbered records, the add dialog of a list, joining a Wi-Fi
// network) draws its inputs with this.
import { useId } from 'react';
import { i18n } from '@lingui/core';
import type { BoundField, Value } from './rules.ts';

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
  if (f.kind === 'select')
    box = (
      // Options keep their type: numbers stay numbers.
      <select {...common} value={text} onChange={(e) => onValue(f.options!.find((o) => String(o.value) === e.currentTarget.value)?.value ?? e.currentTarget.value)}>
        {f.options!.map((o) => (
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
