// Session state (SPEC §3 Session, §4): token in the Admin-Token cookie, the
// device function list (funs, the sign-in reply's word) in the sever-role
// cookie, the user name in local storage (the modify-password dialog reads it
// back, SPEC §5). Below the request layer: it imports nothing of src/api/.
import { atom } from 'nanostores';
import { readCookie, removeCookie, writeCookie } from './cookies.ts';
import { FUNS_COOKIE, NAME_KEY, TOKEN_COOKIE } from './keys.ts';

/** Where a forced logout leaves its reason for the sign-in page, across the reload. */
const NOTICE = 'console.notice';

export interface Session {
  token: string;
  name: string;
  /** The device function list: the menu keys the sidebar shows (SPEC §2). */
  funs: string[];
}

function parseFuns(raw: string | undefined): string[] {
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function readSession(): Session | null {
  const token = readCookie(TOKEN_COOKIE);
  if (!token) return null;
  return { token, name: localStorage.getItem(NAME_KEY) ?? '', funs: parseFuns(readCookie(FUNS_COOKIE)) };
}

export const $session = atom<Session | null>(readSession());
/** Set by response code 11003 (SPEC §4). */
export const $superLogin = atom(false);

export function signIn(token: string, name: string, funs: string[]): void {
  sessionStorage.removeItem(NOTICE);
  writeCookie(TOKEN_COOKIE, token);
  writeCookie(FUNS_COOKIE, JSON.stringify(funs));
  localStorage.setItem(NAME_KEY, name);
  $session.set({ token, name, funs });
}

export function setFuns(funs: string[]): void {
  const s = $session.get();
  if (!s) return;
  writeCookie(FUNS_COOKIE, JSON.stringify(funs));
  $session.set({ ...s, funs });
}

export function clearSession(): void {
  removeCookie(TOKEN_COOKIE);
  removeCookie(FUNS_COOKIE);
  $session.set(null);
  $superLogin.set(false);
}

/** Indirection so unit tests can observe a reload instead of performing it. */
export const page = {
  reload(): void {
    location.reload();
  },
};

/**
 * Forced logout (SPEC §4, §8): clear the session now and reload after `delayMs`;
 * the route guard then sends the visitor to /login with the page to come back to,
 * and the sign-in page says `why` (taken once: takeNotice()).
 */
export function forceLogout(delayMs: number, why?: string): void {
  clearSession();
  if (why) sessionStorage.setItem(NOTICE, why);
  setTimeout(() => page.reload(), delayMs);
}

/** The reason the last forced logout left; it stays (across the reload) until the next sign-in. */
export const takeNotice = () => sessionStorage.getItem(NOTICE) ?? '';

