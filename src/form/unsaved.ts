// "Leave this page? Your changes are not saved." Forms report whether they
// hold unsaved changes; in-app navigation and closing the tab ask first.
import { atom } from 'nanostores';
import { i18n } from '@lingui/core';

export const $unsaved = atom(false);

/** Ask before leaving when a form has unsaved changes; true means go on. */
export function mayLeave(): boolean {
  if (!$unsaved.get()) return true;
  const ok = window.confirm(i18n._('form.leaveUnsaved'));
  if (ok) $unsaved.set(false);
  return ok;
}

let installed = false;
/** The browser's own prompt when closing or reloading the tab with unsaved changes. */
export function guardUnload(): void {
  if (installed) return;
  installed = true;
  addEventListener('beforeunload', (e) => {
    if ($unsaved.get()) e.preventDefault();
  });
}
