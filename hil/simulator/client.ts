// A call to a terminal's /goform/ API from Node, as the contract says (a GET
// with a query, or a POST with JSON): for the unit tests and the bench,
// which talk to the simulated terminal over HTTP.
import { CALLS, GOFORM_PREFIX, HEADERS, TIMESTAMP_PARAM, type CallName } from '../../src/api/contract.ts';

// Taken when this module loads: tests point globalThis.fetch elsewhere later.
const realFetch = globalThis.fetch;

/** Call `name` on the terminal at `base` (http://host:port) and return its parsed reply. */
export async function callSimulator(base: string, name: CallName, params: Record<string, unknown> = {}, token?: string): Promise<Record<string, unknown>> {
  const spec = CALLS[name];
  const headers: Record<string, string> = {};
  if (token) headers[HEADERS.token] = token;
  let url = `${base}${GOFORM_PREFIX}${spec.path}?${TIMESTAMP_PARAM}=${Date.now()}`;
  let body: string | undefined;
  if (spec.method === 'GET') url += '&' + new URLSearchParams(params as Record<string, string>);
  else {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(params);
  }
  return (await (await realFetch(url, { method: spec.method, headers, body })).json()) as Record<string, unknown>;
}
