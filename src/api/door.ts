// The door's state as the console last read it (SetDoorState, docs/API.md
// "The door"). The Door screen keeps it current from the live events; the
// sidebar reads it again whenever a page opens, so the sidebar and the system
// information show a door held open, or left to remain open, at a glance
// without holding an event stream on every page (or, where a stream cannot
// pass, a poll that would keep an idle session alive).
import { atom } from 'nanostores';
import { i18n } from '@lingui/core';
import type { ResponseOf } from '../../contract/index.ts';
import { readOrFailure } from './request.ts';

export type DoorState = ResponseOf<'SetDoorState'>;

export const $door = atom<DoorState | null>(null);

/** Read the door now; resolves with the message of a failure ('' when it was read). */
export const readDoor = (): Promise<string> => readOrFailure('SetDoorState').then((r) => (typeof r === 'string' ? r : ($door.set(r as DoorState), '')));

/** Mode n's name: normal, then as the actions that set it. */
export const MODES = [/*i18n*/ 'basic.fp0', /*i18n*/ 'door.remainOpen', /*i18n*/ 'door.remainClosed'];

/** What needs a look, or '': held open too long, else a door left to remain open (the sidebar's flag). */
export const doorAlert = (s: DoorState | null) => (s?.HeldOpen ? /*i18n*/ 'door.heldOpen' : s?.Mode == 1 ? MODES[1] : '');

/** The door in a few words: an alarm marked with a sign, else its mode (the system information's row). */
export const doorSummary = (s: DoorState) =>
  s.HeldOpen || s.Forced ? `⚠ ${i18n._(s.HeldOpen ? 'door.heldOpen' : /*i18n*/ 'live.k4')}` : i18n._(MODES[s.Mode]);
