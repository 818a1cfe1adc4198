// Calls that answer "wait" while the device works (Wi-Fi scan, Bluetooth
// search, Wiegand pairing): ask again until a real answer comes.
import { WAIT } from '../../contract/protocol.ts';

export const POLL_MS = 500;

/** Ask again every `ms` while the reply is "wait" and `alive()`, at most `tries` times; null when it gave up. */
export async function untilDone<R extends { retvalue: unknown }>(ask: () => Promise<R>, alive: () => boolean, ms = POLL_MS, tries = 60): Promise<R | null> {
  for (let i = 0; i < tries && alive(); i++) {
    const r = await ask();
    if (r.retvalue !== WAIT) return r;
    await new Promise((done) => setTimeout(done, ms));
  }
  return null;
}
