// Device function list (funs) refresh (SPEC §2 Layout, §9): fetched on load,
// then every 30 s, up to 10 more times. The list gates the sidebar. It is a
// request, so it sits here in the request layer and writes what comes back
// into the session below (src/state/ never imports src/api/).
import { requestGoform } from './request.ts';
import { setFuns } from '../state/session.ts';
import { FUN_REFRESH_MS, FUN_REFRESH_TIMES } from '../../contract/protocol.ts';

export { FUN_REFRESH_MS, FUN_REFRESH_TIMES };

export async function fetchFuns(): Promise<void> {
  try {
    const reply = await requestGoform('GetDeviceFunList');
    if (reply.retvalue === 0 && Array.isArray(reply.funs)) setFuns(reply.funs);
  } catch {
    // Already reported by the request layer; the next refresh tries again.
  }
}

/** Start the refresh cycle; returns a function that stops it. */
export function startFunsRefresh(fetchNow: () => unknown = fetchFuns): () => void {
  let left = FUN_REFRESH_TIMES;
  void fetchNow();
  const timer = setInterval(() => {
    void fetchNow();
    if (--left <= 0) clearInterval(timer);
  }, FUN_REFRESH_MS);
  return () => clearInterval(timer);
}
