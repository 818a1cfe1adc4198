// A labelled input with its validation message, wired for assistive tech.
import { useId } from 'react';

export interface FieldProps {
  type?: 'text' | 'password' | 'number' | 'email' | 'tel' | 'url';
  autoComplete?: string;
  autoCapitalize?: 'none' | 'off' | 'on';
  inputMode?: 'numeric' | 'text' | 'decimal' | 'tel' | 'url' | 'email';
  maxLength?: number;
  readOnly?: boolean;
  required?: boolean;
  name?: string;
  label: string;
  value: string;
  error?: string;
  onValue?: (value: string) => void;
  /** What describes the box when there is no error (a hint above the field); the error describes it when there is one. */
  'aria-describedby'?: string;
  /** Rewrites what is typed (e.g. strips non-digits) before it reaches state and screen. */
  normalize?: (value: string) => string;
}

export function Field({ label, value, error, onValue, normalize, ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-e`;
  return (
    <div className={error ? 'field invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...(input as object)}
        onInput={(e) => {
          const el = e.currentTarget as HTMLInputElement;
          const next = normalize ? normalize(el.value) : el.value;
          // Keep the box showing exactly the state, even when the state does not change.
          if (el.value !== next) el.value = next;
          onValue?.(next);
        }}
      />
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
