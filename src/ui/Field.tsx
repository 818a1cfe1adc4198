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
        {...(input as object)}
        id={id}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
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
