// The live events' numbers (contract/events.ts re-exports them), in a module
// of their own so that the console imports them without the events' table:
// esbuild keeps a table whose texts are built from numbers (a template with
// `${...}` may run code), and that table's prose is 2.9 kB the console never shows.

/** Events the device keeps for a reconnecting or polling console: the newest, oldest dropped first. */
export const EVENTS_KEPT = 200;
/** Most events one SetEventList answer carries. */
export const EVENTS_PER_PAGE = 50;
/** The device writes a comment line on an open stream at least this often, so that a dead link shows. */
export const EVENT_HEARTBEAT_MS = 15_000;
