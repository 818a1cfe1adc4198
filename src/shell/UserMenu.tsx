// Top-bar user menu (SPEC §2): modify password, language (only when the
// device setting allows it, SPEC §6), logout after "Are you Sure?".
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { i18n } from '@lingui/core';
import { PasswordDialog } from './PasswordDialog.tsx';
import { LanguageDialog } from './LanguageDialog.tsx';
import { Icon } from '../ui/Icon.tsx';
import { confirmAction } from '../ui/confirm.tsx';
import { requestGoform } from '../api/request.ts';
import { useStore } from '../state/use-store.ts';
import { $session, clearSession } from '../state/session.ts';

export function UserMenu() {
  const session = useStore($session);
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState<'password' | 'language' | null>(null);
  const [languageAllowed, setLanguageAllowed] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    requestGoform('SetLanguageSettingItem').then(
      (r) => setLanguageAllowed(r.retvalue === 0 && r.LanguageSettingItem === 1),
      () => setLanguageAllowed(false),
    );
  }, []);
  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('click', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('click', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const choose = (what: 'password' | 'language' | 'logout') => async () => {
    setOpen(false);
    if (what !== 'logout') return setDialog(what);
    if (!(await confirmAction())) return;
    try {
      await requestGoform('logout');
    } catch {
      // Signing out locally still ends the session in this browser.
    }
    clearSession();
    navigate('/login');
  };

  return (
    <div className="user-menu" ref={root}>
      <button
        type="button"
        className="user-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls="user-menu"
        onClick={() => setOpen(!open)}
      >
        <Icon name="user" />
        <span>{session?.name}</span>
      </button>
      {open && (
        <ul className="menu-list" role="menu" id="user-menu">
          <li role="none">
            <button type="button" role="menuitem" onClick={choose('password')}>
              {i18n._('menu.password')}
            </button>
          </li>
          {languageAllowed && (
            <li role="none">
              <button type="button" role="menuitem" onClick={choose('language')}>
                {i18n._('menu.language')}
              </button>
            </li>
          )}
          <li role="none">
            <button type="button" role="menuitem" onClick={choose('logout')}>
              {i18n._('menu.logout')}
            </button>
          </li>
        </ul>
      )}
      <PasswordDialog open={dialog === 'password'} onClose={() => setDialog(null)} />
      <LanguageDialog open={dialog === 'language'} onClose={() => setDialog(null)} />
    </div>
  );
}
