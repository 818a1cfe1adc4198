// A call to a terminal's /goform/ API from Node, as the contract says it
// travels (GET query, JSON or URL-encoded body): what a script or QA tool
// does. The browser suites' fixtures and the engines' suite both use it.
import { CALLS, type CallName } from '../../contract/index.ts';

export type Reply = Record<string, unknown>;

/** `name` with `token` (X-Token; '' before sign-in) and `body`; its reply as JSON. */
export async function callGoform(url: string, name: CallName, token: string, body: Reply = {}, timeoutMs = 10_000): Promise<Reply> {
  const spec = CALLS[name];
  const text = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)]));
  const init: RequestInit = { method: spec.method, headers: { 'X-Token': token }, signal: AbortSignal.timeout(timeoutMs) };
  let target = `${url}/goform/${name}`;
  if (spec.method === 'GET' || spec.encoding === 'query') target += `?${text}`;
  else if (spec.encoding === 'form') init.body = text.toString();
  else init.body = JSON.stringify(body);
  const res = await fetch(target, init);
  return (await res.json()) as Reply;
}
