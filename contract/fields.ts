// Types of the contract's field tables, and the helper that defines a
// settings pair. Kept apart from contract.ts so the per-area settings files
// can use them without an import cycle.

/** Value kinds a field can take on the wire. */
export type FieldKind =
  | 'string' // text
  | 'int' // integer (sent as a number in JSON, as decimal text in a query or form body)
  | 'flag' // 0 or 1
  | 'strings' // array of text
  | 'object' // nested record, see `fields`
  | 'objects' // array of nested records, see `fields`
  | 'file'; // a file in a multipart body (a Blob in the console)

export interface Field {
  readonly kind: FieldKind;
  readonly doc: string;
  readonly optional?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly maxLength?: number;
  /** Regular expression source the whole value must match. */
  readonly pattern?: string;
  /** The only values accepted. */
  readonly values?: readonly (string | number)[];
  /**
   * A text naming a moment, which must exist as well as match the pattern:
   * `date` YYYY-MM-DD, `datetime` YYYY-MM-DD HH:MM (2031-02-30 is refused, 10005).
   * `zone`: a time zone name the device's tz database has (or a stored
   * ±HH:MM offset); a name it does not know is refused, 10005.
   */
  readonly format?: 'date' | 'datetime' | 'zone';
  readonly fields?: Readonly<Record<string, Field>>;
}

export type Fields = Readonly<Record<string, Field>>;

/** A day, YYYY-MM-DD: the pattern, and format 'date' for the calendar (the day must exist). */
export const DAY_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';
/** A day or nothing. */
export const DAY_OR_EMPTY_PATTERN = `^$|${DAY_PATTERN}`;

export type Area =
  | 'Session'
  | 'System'
  | 'Language'
  | 'Network'
  | 'Basic setup'
  | 'Access control'
  | 'Wiegand and Bluetooth'
  | 'Maintenance'
  | 'Records'
  | 'Users'
  | 'Groups and periods';

export interface CallSpec {
  readonly method: 'GET' | 'POST';
  /** Path under /goform/. */
  readonly path: string;
  readonly area: Area;
  readonly purpose: string;
  /**
   * How request fields travel. `query`: URL query (every GET, and POSTs the
   * spec calls "params"); `json`: JSON body; `form`: URL-encoded body (the
   * spec's "serialized payload"); `multipart`: multipart/form-data, for
   * calls that carry a file.
   */
  readonly encoding: 'query' | 'json' | 'form' | 'multipart';
  /**
   * `file`: a success answers the file itself (an export, a photo); `stream`:
   * Server-Sent Events, `response` being the fields of one event. Failures
   * still answer the envelope.
   */
  readonly reply?: 'file' | 'stream';
  /**
   * Whether a call needs a session token: true for nearly all; false for
   * sign-in; 'factory' for the factory test's calls, open without a session
   * only while the terminal is in its factory state (docs/API.md, "Activation").
   */
  readonly auth: boolean | 'factory';
  readonly request: Fields;
  readonly response: Fields;
  /** Set while the issue that builds the screen has not defined the fields yet. */
  readonly fieldsPending?: string;
}


/**
 * A settings pair (SPEC §7): GET Set<Name> answers the fields, POST Get<Name>
 * takes them (JSON body) and answers the envelope.
 */
export function pair<const Name extends string, const F extends Fields>(name: Name, area: Area, purpose: string, fields: F) {
  return {
    [`Set${name}`]: { method: 'GET', path: `Set${name}`, area, purpose: `Read ${purpose}.`, encoding: 'query', auth: true, request: {}, response: fields },
    [`Get${name}`]: { method: 'POST', path: `Get${name}`, area, purpose: `Write ${purpose}.`, encoding: 'json', auth: true, request: fields, response: {} },
  } as { [K in `Set${Name}`]: { method: 'GET'; path: K; area: Area; purpose: string; encoding: 'query'; auth: true; request: {}; response: F } } & {
    [K in `Get${Name}`]: { method: 'POST'; path: K; area: Area; purpose: string; encoding: 'json'; auth: true; request: F; response: {} };
  };
}
