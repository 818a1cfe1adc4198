// Modal dialog on the platform's <dialog>: focus trap, Escape and the top
// layer come with it.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { i18n } from '@lingui/core';
import { Icon } from './Icon.tsx';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  role?: 'dialog' | 'alertdialog';
}

/** The usual Cancel / OK pair; OK submits the form with id `form` when given. */
export function DialogButtons({ onCancel, onOk, form, busy }: { onCancel: () => void; onOk?: () => void; form?: string; busy?: boolean }) {
  return (
    <>
      <button type="button" className="button" onClick={onCancel}>
        {i18n._('action.cancel')}
      </button>
      <button type={form ? 'submit' : 'button'} form={form} className="button primary" disabled={busy} onClick={onOk} autoFocus={!form}>
        {i18n._('action.ok')}
      </button>
    </>
  );
}

export function Dialog({ open, title, onClose, children, footer, role }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className="dialog"
      role={role}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header className="dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label={i18n._('action.close')}>
          <Icon name="close" size={18} />
        </button>
      </header>
      <div className="dialog-body">{children}</div>
      {footer && <footer className="dialog-foot">{footer}</footer>}
    </dialog>
  );
}
