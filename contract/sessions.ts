// The sessions the device holds (issue 25 §4): list them, and sign one out.
// A session is named by an opaque Id, never by its token: the list must not
// hand one administrator's token to whoever reads it.
import type { CallSpec } from './fields.ts';

/** Ended tokens a device remembers, to answer their next call 40104 rather than 10002 (the oldest is forgotten first). */
export const ENDED_TOKENS_KEPT = 32;

const stamp = (what: string) => ({ kind: 'string', doc: `${what}, "YYYY-MM-DD HH:MM:SS" on the device's clock, in its time zone (as SetDateTimeParam shows it).` }) as const;

export const SESSION_CALLS = {
  SetSessionList: {
    method: 'GET',
    path: 'SetSessionList',
    area: 'Session',
    purpose: 'The sessions the device holds now (signed in, not ended, not idle past RestParam IdleMinutes), oldest first. A session of the factory credential (activation) cannot call it (40105).',
    encoding: 'query',
    auth: true,
    request: {},
    response: {
      List: {
        kind: 'objects',
        doc: 'One entry per session.',
        fields: {
          Id: { kind: 'string', doc: 'Names the session for GetSessionLogout: random, made at sign-in, never the token nor derived from it, never used again for another session.' },
          User: { kind: 'string', doc: 'The account that signed in.' },
          Address: { kind: 'string', doc: 'The address it signed in from (IPv4, or IPv6 as the device sees it).' },
          Since: stamp('When it signed in'),
          LastActive: stamp('Its last call'),
          Current: { kind: 'flag', doc: '1 for the session making this call.' },
        },
      },
    },
  },
  GetSessionLogout: {
    method: 'POST',
    path: 'GetSessionLogout',
    area: 'Session',
    purpose: `Sign a session out. Its token's next call answers 40104 (the console then shows the sign-in page saying the session ended), once; after that the token is unknown (10002). The device remembers the last ${ENDED_TOKENS_KEPT} tokens ended so (older ones answer 10002 at once); a restart forgets them. The caller's own Id is allowed and works the same: this call succeeds, the next one answers 40104. An Id the device does not hold (ended, or never made): 10005 naming Id. A session of the factory credential cannot call it (40105).`,
    encoding: 'json',
    auth: true,
    request: { Id: { kind: 'string', maxLength: 64, doc: 'The session, as SetSessionList names it.' } },
    response: {},
  },
} as const satisfies Record<string, CallSpec>;
