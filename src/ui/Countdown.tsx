// A waiting indicator with SPEC §4's countdown: it starts at 30, goes down by
// one each second and stops at 0, when `onZero` runs. Enrolment uses it; the
// restart countdown and Wiegand pairing can too.
import { useEffect, useRef, useState } from 'react';
import { i18n } from '@lingui/core';

/** SPEC §9: the countdown starts at 30 s. */
export const COUNTDOWN_S = 30;

export function Waiting({ text, from = COUNTDOWN_S, onZero, onCancel }: { text: string; from?: number; onZero?: () => void; onCancel?: () => void }) {
  const [left, setLeft] = useState(from);
  const zero = useRef(onZero);
  zero.current = onZero;
  useEffect(() => {
    const t = setInterval(() => setLeft((n) => (n > 0 ? n - 1 : 0)), 1000);
    return () => clearInterval(t);
  }, []);
  useEffect(() => {
    if (!left) zero.current?.();
  }, [left]);
  return (
    <div class="waiting" role="status">
      {text} <b role="timer">{left}</b>
      {onCancel && (
        <button type="button" class="button" onClick={onCancel}>
          {i18n._('action.cancel')}
        </button>
      )}
    </div>
  );
}
