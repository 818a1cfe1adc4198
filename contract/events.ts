// Live events (issue 25 §2): what happens at the door as it happens. The
// device streams them as Server-Sent Events (EventStream); where a web server
// cannot stream, the console asks for them page by page (SetEventList).
import type { CallSpec, Fields } from './fields.ts';
import { EVENTS_KEPT, EVENTS_PER_PAGE, EVENT_HEARTBEAT_MS } from './event-limits.ts';

export { EVENTS_KEPT, EVENTS_PER_PAGE, EVENT_HEARTBEAT_MS };

export const EVENT_FIELDS = {
  Id: { kind: 'int', doc: 'The event\'s number: each event one more than the one before, from 1 at each start of the device. The stream\'s SSE id.' },
  Time: { kind: 'string', doc: 'When it happened, device time, "YYYY-MM-DD HH:MM:SS" (as record times are written).' },
  Kind: {
    kind: 'int',
    values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    doc: 'What happened: 1 a person verified at the reader (a sign-in), 2 a person refused at the reader (not enrolled, or the wrong finger, face, card or password), 3 the door opened (unlocked, or swung open), 4 the door forced (opened without a verification, an exit button or the console), 5 an alarm (tamper, duress, the door held open), 6 the door closed (locked again, or swung shut). An administrator\'s action on the door (GetDoorAction): 7 open now, 8 remain open, 9 remain closed, 10 back to normal.',
  },
  UserID: { kind: 'string', doc: 'The user, with Kind 1 (and 2 when the card or ID is known); empty otherwise.' },
  UserName: { kind: 'string', doc: 'The user\'s name as stored, with UserID; empty otherwise.' },
  Mode: { kind: 'int', values: [0, 1, 2, 3, 4, 5, 6], doc: 'How the person verified, with Kind 1 and 2: the IdentifyMode numbers (1 fingerprint, 2 face, 3 card, 4 card and fingerprint, 5 card and face, 6 card and password); 0 for the other kinds.' },
} as const satisfies Fields;

const after = { kind: 'int', optional: true, min: 0, doc: 'The Id of the last event the console has (0 or left out: none).' } as const;

export const EVENT_CALLS = {
  EventStream: {
    method: 'GET',
    path: 'EventStream',
    area: 'Records',
    purpose: `Live events as Server-Sent Events (Content-Type text/event-stream, with X-Accel-Buffering: no so that a proxy in front passes them through unbuffered). Each event is one message: "id: <Id>" and "data: <the event as JSON, the fields below>", then an empty line. The stream begins with "retry: 2000" and a comment line, and sends a comment line at least every ${EVENT_HEARTBEAT_MS / 1000} s. A Last-Event-ID header (or After) asks first for the events after it that the device still holds (the newest ${EVENTS_KEPT}); an Id above the newest means the device has restarted since: everything it holds is sent. The stream ends when the session does (signed out, ended from the sessions screen, idle past RestParam IdleMinutes: an open stream does not keep a session alive), and when the device restarts; the next request then answers the code (40104, 10002). A device that cannot stream answers 10001 and the console asks SetEventList instead.`,
    encoding: 'query',
    reply: 'stream',
    auth: true,
    request: { After: after },
    response: EVENT_FIELDS,
  },
  SetEventList: {
    method: 'GET',
    path: 'SetEventList',
    area: 'Records',
    purpose: `The events after After that the device still holds, oldest first, at most ${EVENTS_PER_PAGE} (ask again with the last Id for more): what a console polls where the stream cannot pass. With After above Last (the device has restarted): its events from the first it holds.`,
    encoding: 'query',
    auth: true,
    request: { After: after },
    response: {
      Last: { kind: 'int', doc: 'The newest event\'s Id (0: none since the device started).' },
      List: { kind: 'objects', doc: 'The events, oldest first.', fields: EVENT_FIELDS },
    },
  },
} as const satisfies Record<string, CallSpec>;
