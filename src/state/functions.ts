// Device function list refresh (SPEC §2 Layout, §9): fetched on load, then
// every 30 s, up to 10 more times. The list gates the sidebar.
import { requestGoform } from '../api/request.ts';
import { setRoles } from './session.ts';
import { FUN_REFRESH_MS, FUN_REFRESH_TIMES } from '../api/contract.ts';

export { FUN_REFRESH_MS, FUN_REFRESH_TIMES };

export async function fetchFunctions(): Promise<void> {
  try {
    const reply = await requestGoform('GetDeviceFunList');
    if (reply.retvalue === 0 && Array.isArray(reply.funs)) setRoles(reply.funs);
  } catch {
    // Already reported by the request layer; the next refresh tries again.
  }
}

/** Start the refresh cycle; returns a function that stops it. */
export function startFunctionRefresh(fetchNow: () => unknown = fetchFunctions): () => void {
  let left = FUN_REFRESH_TIMES;
  void fetchNow();
  const timer = setInterval(() => {
    void fetchNow();
    if (--left <= 0) clearInterval(timer);
  }, FUN_REFRESH_MS);
  return () => clearInterval(timer);
}
