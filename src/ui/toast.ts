// Toast messages: a store the request layer and screens push to, rendered by
// <Toasts/> in an aria-live region. Text is resolved when shown.
import { atom } from 'nanostores';

export type ToastKind = 'success' | 'error' | 'info';
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

export const $toasts = atom<Toast[]>([]);
let seq = 0;
const TOAST_MS = 4000;

export function notify(kind: ToastKind, text: string): void {
  const toast = { id: ++seq, kind, text };
  // Same text twice in a row (e.g. several calls failing on a dropped link) shows once.
  const rest = $toasts.get().filter((t) => t.text !== text);
  $toasts.set([...rest.slice(-3), toast]);
  setTimeout(() => dismiss(toast.id), TOAST_MS);
}

export function dismiss(id: number): void {
  $toasts.set($toasts.get().filter((t) => t.id !== id));
}
