// What every /goform/ call shares (SPEC §7 General, §8): the result codes the
// console acts on, the path prefix, the headers, the timestamp, the timeout,
// and the function list's refresh. A module of its own, free of the CALLS
// table, so the console imports these without pulling the table and its
// documentation into the bundle; contract/index.ts exports them too.

/** A reply's retvalue on success (SPEC §8). */
export const SUCCESS = 0;
/** Query parameter carrying a timestamp on every request, so no cache answers it. */
export const TIMESTAMP_PARAM = '_t';
export const REQUEST_TIMEOUT_MS = 60_000;
/** The function list is fetched on load, then every 30 s up to 10 more times (SPEC §2 Layout, §9). */
export const FUN_REFRESH_MS = 30_000;
export const FUN_REFRESH_TIMES = 10;
/** A reply's retvalue while the device is still working: ask again (SPEC §8). */
export const WAIT = 'wait';
export const GOFORM_PREFIX = '/goform/';
// HEADERS, an object, comes last: esbuild writes the numbers and short texts
// above into the code that uses them only when they come before a module's
// first object.
/** Header names (SPEC §7 General). */
export const HEADERS = {
  token: 'X-Token',
  language: 'X-Language',
} as const;
