// Conformance: does a terminal's reply to a /goform/ call match the contract?
// The browser fixture records every reply it sees; the harness report lists,
// per call, whether the answers matched (firmware engineers use it as a check).
import { CALLS, ENVELOPE, type CallSpec, type Field } from '../contract/index.ts';

export interface ReplyRecord {
  call: string;
  status: number;
  body: string;
}

export interface CallConformance {
  call: string;
  seen: number;
  ok: number;
  problems: string[];
}

function kindProblem(v: unknown, f: Field, path: string): string | null {
  switch (f.kind) {
    case 'string':
      return typeof v === 'string' ? null : `${path}: expected text, got ${JSON.stringify(v)}`;
    case 'int':
      return typeof v === 'number' && Number.isInteger(v) ? null : `${path}: expected an integer, got ${JSON.stringify(v)}`;
    case 'flag':
      return v === 0 || v === 1 ? null : `${path}: expected 0 or 1, got ${JSON.stringify(v)}`;
    case 'strings':
      return Array.isArray(v) && v.every((x) => typeof x === 'string') ? null : `${path}: expected a list of text`;
    case 'object': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${path}: expected a record`;
      for (const [k, sub] of Object.entries(f.fields ?? {})) {
        const val = (v as Record<string, unknown>)[k];
        if (val === undefined) {
          if (!sub.optional) return `${path}.${k}: missing`;
          continue;
        }
        const p = kindProblem(val, sub, `${path}.${k}`);
        if (p) return p;
      }
      return null;
    }
    case 'objects':
      if (!Array.isArray(v)) return `${path}: expected a list of records`;
      for (let i = 0; i < v.length; i++) {
        const p = kindProblem(v[i], { ...f, kind: 'object' }, `${path}[${i}]`);
        if (p) return p;
      }
      return null;
    case 'file':
      return null;
  }
}

/** Problems with one reply; an empty list means it matches the contract. */
export function checkReply(call: string, status: number, body: string): string[] {
  const spec = (CALLS as Record<string, CallSpec>)[call];
  if (!spec) return [`not a call of the contract`];
  if (status !== 200) return [`HTTP status ${status}`];
  let reply: unknown;
  // A call that answers a file (an export, a photo) or a stream of events answers JSON only when it fails.
  if (spec.reply && !/^\s*[{"]/.test(body)) return [];
  try {
    reply = JSON.parse(body);
    if (typeof reply === 'string') reply = JSON.parse(reply);
  } catch {
    return ['body is not JSON'];
  }
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) return ['reply is not a JSON object'];
  const r = reply as Record<string, unknown>;
  const problems: string[] = [];
  const rv = r.retvalue;
  if (!(typeof rv === 'number' && Number.isInteger(rv)) && rv !== 'wait') problems.push(`retvalue: expected an integer or "wait", got ${JSON.stringify(rv)}`);
  if (r.msg !== undefined && typeof r.msg !== 'string') problems.push('msg: expected text');
  if (r.reboot !== undefined && ![true, false, 0, 1].includes(r.reboot as never)) problems.push('reboot: expected true/false or 0/1');
  if (rv !== 0 || spec.fieldsPending) return problems;
  for (const [name, f] of Object.entries(spec.response)) {
    if (r[name] === undefined) {
      if (!f.optional) problems.push(`${name}: missing`);
      continue;
    }
    const p = kindProblem(r[name], f, name);
    if (p) problems.push(p);
  }
  for (const k of Object.keys(r)) if (!(k in spec.response) && !(k in ENVELOPE)) problems.push(`${k}: not in the contract`);
  return problems;
}

/** Per-call summary of recorded replies, in contract order. */
export function summarize(records: ReplyRecord[]): CallConformance[] {
  const by = new Map<string, CallConformance>();
  for (const rec of records) {
    const c = by.get(rec.call) ?? { call: rec.call, seen: 0, ok: 0, problems: [] };
    const problems = checkReply(rec.call, rec.status, rec.body);
    c.seen++;
    if (problems.length === 0) c.ok++;
    for (const p of problems) if (!c.problems.includes(p)) c.problems.push(p);
    by.set(rec.call, c);
  }
  const order = Object.keys(CALLS);
  return [...by.values()].sort((a, b) => order.indexOf(a.call) - order.indexOf(b.call));
}
