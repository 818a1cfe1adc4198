import { useStore } from '../state/use-store.ts';
import { $toasts, dismiss } from './toast.ts';

/** Messages from the request layer and screens, announced to screen readers. */
export function Toasts() {
  const toasts = useStore($toasts);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast ${t.kind}`} onClick={() => dismiss(t.id)}>
          {t.text}
        </div>
      ))}
    </div>
  );
}
