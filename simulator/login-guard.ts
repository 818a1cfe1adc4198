// The illegal-login lock (docs/API.md, "Sign-in attempts"): what a terminal
// can afford against password guessing. Per source address and typed user
// name, the first few wrong passwords cost nothing; after them each wrong
// password closes sign-in for that pair for a growing wait (1, 2, 4 ... 32 s),
// and the tenth locks it for 15 minutes. The address as a whole counts too
// (10 free, a lock at 30), so cycling through made-up user names from one
// address does not get round the lock. While closed, chklogin answers 40303
// with the seconds left, without looking at the password, and nothing is held
// open: no timer, no delayed reply, one small entry per pair (at most
// MAX_ENTRIES, the oldest dropped). A right password resets the pair; a pair
// left alone for 15 minutes is forgotten. Nothing locks for good, and a
// restart clears every lock: the administrator's last resort.

import { LOGIN_LOCK_RULES as LOGIN_GUARD } from '../contract/codes.ts';

interface Entry {
  failures: number;
  last: number;
  /** Sign-in closed until then (ms). */
  until: number;
}

export class LoginGuard {
  /** Keyed by address and user name: a Map, never a plain object (a name is the requester's text). */
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly rules: typeof LOGIN_GUARD = LOGIN_GUARD) {}

  /** The pair's key and the address's own ("\u0000" cannot be in a user name: the contract refuses control characters). */
  private keys = (address: string, user: string) => [`${address}\u0000${user}`, address] as const;

  private closedFor(key: string, now: number): number {
    const e = this.entries.get(key);
    return e && e.until > now ? Math.ceil((e.until - now) / 1000) : 0;
  }

  /** Seconds sign-in stays closed for this address and user name (0: open). */
  wait(address: string, user: string, now: number): number {
    return Math.max(...this.keys(address, user).map((k) => this.closedFor(k, now)));
  }

  private count(key: string, free: number, lockAfter: number, now: number): void {
    const r = this.rules;
    let e = this.entries.get(key);
    if (!e || now - e.last > r.forgetS * 1000) e = { failures: 0, last: now, until: 0 };
    this.entries.delete(key); // re-inserted last: the Map's order is the age order
    e.failures += 1;
    e.last = now;
    const over = e.failures - free;
    if (e.failures >= lockAfter) e.until = now + r.lockS * 1000;
    else if (over > 0) e.until = now + Math.min(r.firstWaitS * 2 ** (over - 1), r.maxWaitS) * 1000;
    this.entries.set(key, e);
  }

  /** A wrong user name or password: count it; answers the seconds sign-in is now closed for (0: still open). */
  failed(address: string, user: string, now: number): number {
    const r = this.rules;
    const [pair, addr] = this.keys(address, user);
    this.count(pair, r.free, r.lockAfter, now);
    this.count(addr, r.addressFree, r.addressLockAfter, now);
    // Over the cap: drop the oldest entry that is open now; only if every one is closed, the oldest.
    while (this.entries.size > r.maxEntries) {
      const open = [...this.entries].find(([, e]) => e.until <= now);
      this.entries.delete(open ? open[0] : this.entries.keys().next().value!);
    }
    return this.wait(address, user, now);
  }

  /** The right password: this address and user name start again from nothing. */
  succeeded(address: string, user: string): void {
    for (const k of this.keys(address, user)) this.entries.delete(k);
  }
}
