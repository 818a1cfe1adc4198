// A call to a terminal's /goform/ API from Node, as the contract says (a GET
// with a query, or a POST with JSON): for the unit tests and the bench,
// which talk to the simulated terminal over HTTP.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { CALLS, GOFORM_PREFIX, HEADERS, TIMESTAMP_PARAM, type CallName } from '../contract/index.ts';

/**
 * Call `name` on the terminal at `base` (http://host:port or https://) and return its parsed reply.
 * Each call has a connection of its own (no keep-alive pool): a terminal that restarts drops
 * every connection, and a pooled one reused just after could fail a call the terminal would
 * have answered (the client learns of the drop only when it writes).
 */
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
  const text = await new Promise<string>((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = send(url, { method: spec.method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
  return JSON.parse(text) as Record<string, unknown>;
}
