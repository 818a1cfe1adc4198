// A read kept current by the live events (the door's state): `read` runs once,
// then again after each event of the given kinds, heard by the stream or,
// where it cannot pass, by asking (src/api/live.ts, which follows them only
// while the screen is open). Reads do not overlap: what comes while one is
// under way makes one more read after it, so a burst of events (those a
// reconnected stream sends first) costs two reads, not one each.
import { useEffect, useState } from 'react';
import { follow, type Hearing } from '../api/live.ts';

/** How the console hears the device (Hearing 0, 1, 2), for the status line. */
export const HEARING = [/*i18n*/ 'live.lost', /*i18n*/ 'live.on', /*i18n*/ 'live.poll'];

export function useLive(kinds: readonly number[], read: () => Promise<unknown>) {
  const [hearing, setHearing] = useState<Hearing | -1>(-1);
  const [again] = useState(() => {
    let busy = false;
    let more = false;
    const run = (): void => {
      if (busy) return void (more = true);
      busy = true;
      const done = () => {
        busy = false;
        if (more) (more = false), run();
      };
      read().then(done, done);
    };
    return run;
  });
  useEffect(() => (again(), follow((e) => kinds.includes(e.Kind) && again(), setHearing)), []);
  return { hearing, again };
}
