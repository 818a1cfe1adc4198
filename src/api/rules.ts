// Field constraints (kind, min, max, maxLength, pattern, values, optional) of
// the calls that write settings, for the form engine and the screens. In the
// console bundle, build.ts replaces this module with a table of just those
// calls, without documentation, so the contract the login page loads stays small.
import { CALLS, type CallName, type Fields } from './contract.ts';

export function rulesOf(name: CallName): Fields {
  return (CALLS[name] as { request?: Fields }).request ?? {};
}
