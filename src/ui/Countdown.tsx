// A waiting indicator with SPEC §4's countdown: it starts at 30, goes down by
// one each second and stops at 0, when `onZero` runs. Enrolment uses it; the
// restart countdown and Wiegand pairing can too.
import { useEffect, useState } from 'react';
import { i18n } from '@lingui/core';
import { num } from '../i18n/format.ts';

/** SPEC §9: the countdown starts at 30 s. */
export const COUNTDOWN_S = 30;

export function Waiting({ text, from = COUNTDOWN_S, onZero, onCancel }: { text: string; from?: number; onZero?: () => void; onCancel?: () => void }) {
  const [left, setLeft] = useState(from);
  useEffect(() => {
    const t = setInterval(() => setLeft((n) => n && n - 1), 1000);
    return () => clearInterval(t);
  }, []);
  // Runs with this render's onZero, once: `left` stays 0.
  useEffect(() => void (left || onZero?.()), [left]);
  return (
    <div className="waiting" role="status">
      {text} <b role="timer">{num(left)}</b>
      {onCancel && (
        <button type="button" className="button" onClick={onCancel}>
          {i18n._('action.cancel')}
        </button>
      )}
    </div>
  );
}
