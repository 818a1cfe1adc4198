// The administrator password's form rules (SPEC §5, §9: six digits), shared
// by the modify-password dialog and the activation step: digits only as
// typed, the new one required and six digits, the confirmation the same.
// Returns message ids. What the device refuses beyond them (a weak password,
// 40204) it says itself.

export const PASSWORD_DIGITS = 6;
export const digitsOnly = (v: string) => v.replace(/\D+/g, '').slice(0, PASSWORD_DIGITS);

export interface NewPassword {
  newpwd: string;
  confirm: string;
}

export function validateNew(f: NewPassword): Partial<Record<keyof NewPassword, string>> {
  const e: Partial<Record<keyof NewPassword, string>> = {};
  if (!f.newpwd) e.newpwd = /*i18n*/ 'pwd.enterNew';
  else if (f.newpwd.length !== PASSWORD_DIGITS) e.newpwd = /*i18n*/ 'err.40202';
  if (!f.confirm) e.confirm = /*i18n*/ 'pwd.enterAgain';
  else if (f.confirm !== f.newpwd) e.confirm = /*i18n*/ 'pwd.inconsistent';
  return e;
}
