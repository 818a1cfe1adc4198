// Activation (docs/API.md, "Activation"; ETSI EN 303 645 provision 5.1-1: no
// universal default password outside the factory state). A terminal new from
// production, or initialized, is in its factory state: the factory credential
// (the model's admin) signs in, but that session may only choose the
// administrator password (Activate) or sign out. The password chosen must not
// be one a brute-force list tries first.
import { WEAK_PASSWORD } from '../contract/codes.ts';
import { refuse, type CallImpl, type Context } from './types.ts';

/** The calls an activation session may make; any other answers ACTIVATE_FIRST (sessions.ts). */
export const ACTIVATION_CALLS: ReadonlySet<string> = new Set(['Activate', 'logout']);

/** Each digit one more (or one less) than the one before, wrapping 9 to 0: 123456, 890123, 654321, 109876. */
function run(digits: string, step: 1 | 9): boolean {
  for (let i = 1; i < digits.length; i++) if ((Number(digits[i - 1]) + step) % 10 !== Number(digits[i])) return false;
  return true;
}

/**
 * Why a new administrator password is refused, or null: the factory
 * password; one digit repeated (000000); a run up or down (123456, 987654,
 * wrapping: 890123); six digits in a row of the serial number (printed on
 * the terminal's label).
 */
export function weakness(password: string, factory: string, serial: string): string | null {
  if (password === factory) return 'the factory password';
  if (/^(\d)\1*$/.test(password)) return 'one digit repeated';
  if (run(password, 1) || run(password, 9)) return 'a run of digits';
  if (serial.replace(/\D+/g, '').includes(password)) return 'digits of the serial number';
  return null;
}

/** Refuses a weak new password with WEAK_PASSWORD naming `field`. */
export function checkStrength(ctx: Context, password: string, field: string): void {
  if (weakness(password, ctx.model.admin.password, ctx.model.Serial)) refuse(WEAK_PASSWORD, { field });
}

export const handlers: Record<string, CallImpl> = {
  Activate: {
    invalidCodes: { newpwd: 40202 },
    async handle(ctx, p) {
      const session = ctx.session!;
      // Only the session the factory credential opened, in the factory state, activates.
      if (!session.activation || ctx.store.get().admin.activated) refuse(10001);
      const password = String(p.newpwd);
      checkStrength(ctx, password, 'newpwd');
      await ctx.store.update((s) => {
        s.admin = { username: s.admin.username, password, activated: true };
      });
      // The session goes on as a full one; any other activation session ends (it would sign in with a password that no longer exists).
      session.activation = false;
      for (const [token, s] of ctx.sessions) if (s.activation) ctx.sessions.delete(token);
      return {};
    },
  },
};

/**
 * The password the simulated terminals of the harness (`npm run hil --
 * --simulate`) and of the tests are activated with (hil/admin.ts): not
 * weak by the rules above, and the browser suites' default (CONSOLE_PASSWORD
 * overrides it for a real terminal).
 */
export const SIMULATED_PASSWORD = '470213';
