// Where the console keeps a session in the browser (SPEC §3 Session, §9): the names alone, with nothing
// that reads them, so that the browser suites (Node) take them from here too.

/** The session's token. */
export const TOKEN_COOKIE = 'Admin-Token';
/** The function list's cookie: SPEC §9 names it, so the name stays. */
export const FUNS_COOKIE = 'sever-role';
/** The signed-in user's name, in local storage (the modify-password dialog reads it back, SPEC §5). */
export const NAME_KEY = 'console.user';
