// The sessions the simulated terminal holds, in memory as on the terminal (a
// restart ends them all): the table chklogin fills (api.ts), the tokens
// GetSessionLogout ended, the sign-in lock (login-guard.ts), and the check of
// the token a call that needs a session sends. The calls about sessions
// (the list, signing another one out) are areas/sessions.ts.
import { ACTIVATE_FIRST } from '../contract/codes.ts';
import { ACTIVATION_CALLS } from './activation.ts';
import { LoginGuard } from './login-guard.ts';
import type { DeviceModel } from './model.ts';
import { webSettings } from './settings.ts';
import type { Store } from './store.ts';
import { fail, type DeviceState, type Reply, type Session } from './types.ts';

export class Sessions {
  /** By token: a Map, never a plain object (a token is the requester's text). */
  readonly table = new Map<string, Session>();
  /** Tokens GetSessionLogout ended: their next call answers 40104 once. */
  readonly ended = new Set<string>();
  /** Failed sign-ins per address and user name; a restart clears every lock. */
  logins = new LoginGuard();

  constructor(
    private readonly model: DeviceModel,
    private readonly store: Store<DeviceState>,
    private readonly now: () => number,
  ) {}

  /** How long a session may be unused: RestParam.IdleMinutes, or the model's sessionIdleMs when a test sets one. */
  readonly idleMs = () => this.model.sessionIdleMs ?? webSettings(this.store.get()).IdleMinutes * 60_000;

  /**
   * The session `token` opens for call `name`, marked as used now; or why the
   * call is refused: 10002 for a token the terminal does not know, 40104 for
   * one that was signed out (once) or left unused past the idle time, and
   * ACTIVATE_FIRST for a session of the factory credential (docs/API.md,
   * "Activation") calling anything but choosing the password.
   */
  use(token: unknown, name: string): { session: Session; refused?: undefined } | { refused: Reply } {
    const s = typeof token === 'string' ? this.table.get(token) : undefined;
    // A token GetSessionLogout ended answers 40104 once, then it is unknown.
    if (!s) return { refused: fail(typeof token === 'string' && this.ended.delete(token) ? 40104 : 10002) };
    if (this.now() - s.lastUsed > this.idleMs()) {
      this.table.delete(s.token);
      return { refused: fail(40104) };
    }
    s.lastUsed = this.now();
    if (s.activation && !ACTIVATION_CALLS.has(name)) return { refused: fail(ACTIVATE_FIRST) };
    return { session: s };
  }

  /** Whether a session still holds: not ended, not unused past the idle time (an open event stream asks). */
  holds(s: Session): boolean {
    return this.table.get(s.token) === s && this.now() - s.lastUsed <= this.idleMs();
  }

  /** A restart: every session, every ended token and every sign-in lock is gone. */
  clear(): void {
    this.table.clear();
    this.ended.clear();
    this.logins = new LoginGuard();
  }
}
