// The door (issue 35): its state, and what an administrator does to it from
// the console: open it now, keep it open or closed whatever the periods say,
// and give it back to them. docs/API.md, "The door", says how a device keeps
// it; the simulated terminal's is simulator/door.ts.
import type { CallSpec } from './fields.ts';
import { DOOR_NOT_LOCK, DOOR_SECONDS, NO_RELAY } from './codes.ts';

/** The modes (SetDoorState's Mode; GetDoorAction's Action 0 to 2 sets the same number). */
export const DOOR_MODES = { 0: 'back to normal', 1: 'remain open', 2: 'remain closed' } as const;
/** GetDoorAction's Action that opens the door for a time; the other actions set the mode of their number. */
export const OPEN_NOW = 3;
/** The longest open now, in seconds: beyond it a door should be set to remain open, which says so on every console. */
export const OPEN_MAX_S = 600;

const stamp = { kind: 'string', doc: 'When the door last changed (its mode, its lock, its sensor, or an alarm began), "YYYY-MM-DD HH:MM:SS" on the device\'s clock.' } as const;

export const DOOR_CALLS = {
  SetDoorState: {
    method: 'GET',
    path: 'SetDoorState',
    area: 'Access control',
    purpose: `The door now: its mode, its lock (the relay), its sensor, its alarms and since when. A terminal without a relay (attendance only: door is not in its function list) answers ${NO_RELAY}.`,
    encoding: 'query',
    auth: true,
    request: {},
    response: {
      Mode: { kind: 'int', values: [0, 1, 2], doc: 'Who rules the door: 0 normal (the verifications at the reader, and the always-open and always-closed periods), 1 remain open, 2 remain closed. 1 and 2 hold across a restart until GetDoorAction gives the door back (Action 0), whatever the periods say.' },
      Lock: { kind: 'flag', doc: `1: the relay drives the door's lock (SetAccessControl RelayMode 2, door open). 0: it rings a bell or drives nothing; GetDoorAction then answers ${DOOR_NOT_LOCK}.` },
      Relay: { kind: 'flag', doc: '1: the relay is energised, the door unlocked (remain open, an always-open period, or for a time: Left).' },
      Left: { kind: 'int', min: 0, doc: 'Seconds until the relay releases, while it is energised for a time (open now, a pass at the reader); 0 otherwise.' },
      Sensor: { kind: 'int', values: [0, 1, 2, 3], doc: 'The door sensor: 0 none (SetAccessControl DoorSensor 0), 1 closed, 2 open, 3 fault (the contact reads neither).' },
      HeldOpen: { kind: 'flag', doc: '1: the door stayed open too long after the relay released (an alarm, with a sensor only). It ends when the door closes.' },
      Forced: { kind: 'flag', doc: '1: the door was opened while locked (an alarm, with a sensor only). It ends when the door closes.' },
      Period: { kind: 'int', values: [0, 1, 2], doc: 'What the periods say now, whatever the mode: 0 none holds, 1 an always-open period, 2 an always-closed one (it wins over an always-open one). In mode 0 the door follows it; in modes 1 and 2 it does not.' },
      Since: stamp,
    },
  },
  GetDoorAction: {
    method: 'POST',
    path: 'GetDoorAction',
    area: 'Access control',
    purpose: `Act on the door. Action 3 opens it now: the relay for Seconds, or the relay delay (SetAccessControl RelayDelay) without it; the mode holds (a door that remains closed locks again when the time is up), and a restart ends it. Actions 0 to 2 set Mode to their number: 1 remain open, 2 remain closed, 0 back to normal. Refused with ${NO_RELAY} on a terminal without a relay, with ${DOOR_NOT_LOCK} when the relay does not drive the lock (RelayMode is not 2), with ${DOOR_SECONDS} (field Seconds) for Seconds outside 1 to ${OPEN_MAX_S} or with another action than 3. Each action taken is an entry of the operation log (Kind 14) and a live event (Kinds 7 to 10).`,
    encoding: 'json',
    auth: true,
    request: {
      Action: { kind: 'int', values: [0, 1, 2, OPEN_NOW], doc: '0 back to normal, 1 remain open, 2 remain closed, 3 open now.' },
      Seconds: { kind: 'int', optional: true, min: 1, max: OPEN_MAX_S, doc: `With Action 3: how long the door stays unlocked, 1 to ${OPEN_MAX_S} s; left out: the relay delay.` },
    },
    response: {},
  },
} as const satisfies Record<string, CallSpec>;
