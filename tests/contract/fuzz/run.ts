// The contract fuzz (contract-fuzz.ts): the run. Sign in, then per call and
// kind of mutation one fast-check property: send each case, check the answer
// against the oracle, and for a refused write that nothing changed.
import fc from 'fast-check';
import { ENVELOPE, GOFORM_PREFIX } from '../../../contract/index.ts';
import { TEST_ADMIN } from '../../../hil/admin.ts';
import { AUTH_CODES, CHANGING_CODES, CONNECTION_FIELDS, NEVER_SENT, PAIR_WRITES, READ_ONLY, RESTARTING_COMMANDS, SPECS, documentedCodes, isReadOnly, own, pairRead, restartsOnChange, waits, type Values } from './contract.ts';
import { entriesOf, mutators, type Base } from './mutators.ts';
import { OK, RULES, isPlainObject, judgeRecord, verdictOf, type Case, type Verdict } from './oracle.ts';
import { fitsValue, validRecord } from './values.ts';
import { Http, toWire, type Outcome } from './wire.ts';

// ===========================================================================
// The run

export interface FuzzOptions {
  /** The terminal, http://host[:port]. */
  url: string;
  /** Send calls that change the device (every call but NEVER_SENT). */
  allowWrites: boolean;
  /** Random runs per property (one call, one kind of mutation), after its fixed examples. */
  runs: number;
  /** Base seed; each property's seed derives from it and the property's name. */
  seed: number;
  /** Per request. */
  timeoutMs?: number;
  username?: string;
  password?: string;
  /** Only these properties: call names, call:kind, or :kind. */
  only?: string[];
  /** Not these (same forms): e.g. chklogin on a terminal whose sign-in lock you would rather not close. */
  skip?: string[];
  /** Replay one property (with `only`) along fast-check's path. */
  path?: string;
  /** The target is the simulated terminal: connection fields are fuzzed too (see CONNECTION_FIELDS). */
  simulator?: boolean;
  /** Shrink counterexamples (default true). */
  shrink?: boolean;
  /** Progress lines. */
  log?: (line: string) => void;
}

export interface Failure {
  id: string;
  call: string;
  kind: string;
  /** The first problem, in words. */
  problem: string;
  /** Every problem with the request and the reply. */
  detail: string;
  /** fast-check's report: counterexample, seed, path. */
  report: string;
  seed: number;
  path: string | null;
}

export interface FuzzResult {
  failures: Failure[];
  properties: number;
  requests: number;
  ms: number;
  skipped: string[];
}

/** A property's seed, from the base seed and its name: any property replays alone with FUZZ_ONLY and the same FUZZ_SEED. */
export function propertySeed(seed: number, id: string): number {
  let h = seed | 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** Bytes as text, with what is not UTF-8 shown as \\xHH. */
function showBytes(b: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return [...b.subarray(0, 4096)].map((x) => (x < 0x80 ? String.fromCharCode(x) : `\\x${x.toString(16).padStart(2, '0')}`)).join('');
  }
}

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s);

class Problem extends Error {}

export async function fuzzContract(o: FuzzOptions): Promise<FuzzResult> {
  const started = Date.now();
  const log = o.log ?? (() => undefined);
  const http = new Http(new URL(o.url), o.timeoutMs ?? 10_000);
  const username = o.username ?? 'admin';
  const password = o.password ?? TEST_ADMIN.password;
  const failures: Failure[] = [];
  const skipped: string[] = [];
  let properties = 0;

  const call = async (name: string, params: Values, token?: string): Promise<Outcome> => {
    const c: Case = { call: name, kind: 'read', what: '', method: SPECS[name].method, enc: SPECS[name].encoding, fields: entriesOf(params), token: token === undefined ? 'none' : 'session' };
    return http.send(toWire(c, token));
  };
  const signIn = async (): Promise<string> => {
    const r = await call('chklogin', { username, password });
    const reply = r.json as { retvalue?: unknown; token?: unknown } | undefined;
    if (reply?.retvalue !== 0 || typeof reply.token !== 'string') throw new Error(`cannot sign in as ${username}: ${r.error ?? JSON.stringify(r.json ?? r.file)}`);
    return reply.token;
  };
  let token = await signIn();
  /** The terminal said it restarts (reboot in a reply) or the session ended: wait until it answers, then sign in again. */
  const recover = async () => {
    for (let t = Date.now(); Date.now() - t < 90_000; await new Promise((r) => setTimeout(r, 1000))) {
      try {
        token = await signIn();
        return;
      } catch {
        /* not yet */
      }
    }
    throw new Error('the terminal did not come back within 90 s');
  };

  // Values that valid writes keep: fields whose change restarts the device, and (on a real terminal) the connection's.
  const pins: Record<string, Values> = {};
  for (const name of PAIR_WRITES) {
    const keep = Object.entries(SPECS[name].request)
      .filter(([k, f]) => restartsOnChange(f) || (!o.simulator && (CONNECTION_FIELDS[name] === '*' || CONNECTION_FIELDS[name]?.includes(k))))
      .map(([k]) => k);
    if (!keep.length) continue;
    const r = await call(pairRead(name)!, {}, token);
    const reply = r.json as Values | undefined;
    if (reply?.retvalue !== 0) {
      skipped.push(`${name}: valid writes (cannot read ${pairRead(name)} to keep ${keep.join(', ')})`);
      continue;
    }
    pins[name] = Object.fromEntries(keep.filter((k) => reply[k] !== undefined).map((k) => [k, reply[k]]));
  }

  /** Base requests of a call. */
  const baseOf = (name: string): Base => {
    let valid = validRecord(SPECS[name].request);
    const rule = RULES[name];
    if (rule) valid = valid.map(rule.fix);
    if (pins[name]) valid = valid.map((v) => ({ ...v, ...pins[name] }));
    if (name === 'ExecuteCommand') valid = valid.filter((v) => !RESTARTING_COMMANDS.has(v.Code as number));
    let malformed = valid;
    if (name === 'EditPwd') {
      // Malformed and unauthorised EditPwd keep the password (a wrongly taken one changes nothing); valid ones change it and restorePassword puts it back.
      malformed = valid.map((v) => ({ ...v, userid: username, oldpwd: password, newpwd: password }));
      valid = valid.map((v) => ({ ...v, userid: username, oldpwd: password }));
    }
    return { valid, malformed };
  };

  /** What a refused write must leave as it was: its pair's read, or the read-only calls of its area; fields filled from the request. */
  const readsFor = (name: string, v: Values): { name: string; params: Values }[] => {
    const fill = (read: string): Values | null => {
      const p: Values = {};
      for (const [k, f] of Object.entries(SPECS[read].request)) {
        if (own(v, k) && fitsValue(f, v[k])) p[k] = v[k];
        else if (f.optional) continue;
        else if (f.values?.length) p[k] = f.values[0];
        else if (f.kind === 'int' && f.min !== undefined) p[k] = f.min;
        else return null;
      }
      return p;
    };
    const pair = pairRead(name);
    const names = pair
      ? [pair]
      : [
          ...[...READ_ONLY].filter((r) => SPECS[r].area === SPECS[name].area && !['chklogin', 'checkPower', 'test_takephoto'].includes(r) && SPECS[r].reply !== 'file' && r !== name),
          ...(EXTRA_READS[name] ?? []),
        ];
    return names.flatMap((r) => {
      const params = fill(r);
      return params ? [{ name: r, params }] : [];
    });
  };
  const EXTRA_READS: Record<string, string[]> = {
    // Joining a network saves the Wi-Fi settings; clearing admin cards changes users; an upgrade, the firmware version.
    GetChooseWirless: ['SetWirless'],
    InitAdminCard: ['userlist'],
    UpdateMachine: ['SetInfoParam'],
  };
  /** A read's answer, for comparing: the device clock (SetDateTimeParam's Date and Time) left out, kept apart; of the door, its mode. */
  const snapshot = async (reads: { name: string; params: Values }[]) => {
    const out: { name: string; reply: unknown; raw: unknown; clock?: number; fits: Verdict }[] = [];
    for (const r of reads) {
      const res = await call(r.name, r.params, token);
      const raw: unknown = res.json ?? res.error ?? res.file;
      let reply = raw;
      const fits = isPlainObject(reply) && reply.retvalue === 0 ? judgeRecord(SPECS[r.name].response, Object.entries(reply).filter(([k]) => !own(ENVELOPE, k)), `${r.name} `, true) : OK;
      let clock: number | undefined;
      if (isPlainObject(reply) && r.name === 'SetDateTimeParam') {
        clock = Date.parse(`${reply.Date}T${reply.Time}:00Z`);
        reply = { ...reply, Date: undefined, Time: undefined };
      }
      // The door moves by itself (an open now's relay runs out, the sensor follows it, a period begins):
      // what a refused action must leave as it was is its mode.
      if (isPlainObject(reply) && r.name === 'SetDoorState') reply = { retvalue: reply.retvalue, Mode: reply.Mode };
      out.push({ name: r.name, reply, raw, clock, fits });
    }
    return out;
  };

  /** EditPwd must leave the administrator password as it was (a valid one changes it: put it back). */
  const restorePassword = async (c: Case, verdict: Verdict & { values?: Values }, rv: unknown): Promise<string | null> => {
    const check = await call('checkPower', { password }, token);
    if ((check.json as Values | undefined)?.retvalue === 0) return null;
    const now = verdict.values?.newpwd;
    if (typeof now === 'string') {
      const back = await call('EditPwd', { userid: username, oldpwd: now, newpwd: password }, token);
      // A change the request was meant to make is no problem (it is put back all the same).
      if ((back.json as Values | undefined)?.retvalue === 0) return verdict.v === 'ok' && rv === 0 ? null : `the administrator password changed to ${JSON.stringify(now)} (put back)`;
    }
    throw new Error(`EditPwd: the administrator password is no longer ${password} after ${c.what}; the run stops`);
  };

  const allowed = (c: Case) => (SPECS[c.call].auth && c.token !== 'session' ? AUTH_CODES : new Set([...documentedCodes(c.call), ...(c.codes ?? [])]));

  /** Send a case and check everything about its answer; throws a Problem listing what is wrong. */
  const check = async (c: Case) => {
    const spec = SPECS[c.call];
    const verdict = verdictOf(c);
    const pair = pairRead(c.call);
    const writes = !isReadOnly(c.call);
    const reads = writes ? readsFor(c.call, verdict.values ?? Object.fromEntries(c.fields)) : [];
    const before = reads.length ? await snapshot(reads) : null;
    // logout gets a session of its own: the fuzz session must outlive it.
    const useToken = c.token === 'none' ? undefined : c.token === 'session' ? (c.call === 'logout' ? await signIn() : token) : c.token;
    const wire = toWire(c, useToken);
    const out = await http.send(wire);
    const problems: string[] = [];
    const reply = out.json as Values | undefined;
    const rv = reply?.retvalue;
    const authCase = spec.auth && c.token !== 'session';
    if (out.error) problems.push(out.error);
    else {
      if ((out.status ?? 0) >= 500) problems.push(`HTTP ${out.status}`);
      if (out.file) {
        // A stream (EventStream) answers its first bytes; they must be the stream's start.
        if (spec.reply === 'stream' && out.status === 200 && !out.file.head.startsWith('retry: ')) problems.push(`a stream that does not begin with "retry:": ${JSON.stringify(out.file.head.slice(0, 80))}`);
        if ((spec.reply !== 'file' && spec.reply !== 'stream') || out.status !== 200) problems.push(`not an envelope: HTTP ${out.status} ${out.file.type || 'no type'} ${JSON.stringify(out.file.head.slice(0, 80))}`);
        else if (verdict.v === 'bad' || authCase) problems.push(`a file for a request that should be refused (${verdict.v === 'bad' ? verdict.why : 'no session'})`);
      } else if (!isPlainObject(reply)) problems.push(`not an envelope: ${clip(JSON.stringify(reply), 100)}`);
      else if (rv === 'wait') {
        if (!waits(c.call)) problems.push('retvalue "wait" from a call that never waits');
        if (verdict.v === 'bad' || authCase) problems.push(`"wait" (taken) for a request that should be refused: ${verdict.v === 'bad' ? verdict.why : 'no session'}`);
      } else if (typeof rv !== 'number' || !Number.isInteger(rv)) problems.push(`retvalue ${JSON.stringify(rv)} is not an integer`);
      else if (rv === 0) {
        if (authCase) problems.push(`taken without a session (${c.what})`);
        else if (verdict.v === 'bad') problems.push(`taken: ${verdict.why}`);
        const shape = judgeRecord(spec.response, Object.entries(reply).filter(([k]) => !own(ENVELOPE, k)), 'reply ', true);
        if (shape.v === 'bad') problems.push(`answer does not fit the contract: ${shape.why}`);
      } else {
        const codes = allowed(c);
        if (!codes.has(rv)) problems.push(`code ${rv}${reply.msg ? ` (${reply.msg})` : ''} is not one ${authCase ? 'a call without a session answers' : `${c.call} documents`} (${[...codes].join(', ')})`);
        if (verdict.v === 'ok' && pair && !authCase) problems.push(`a valid write refused: ${rv}${reply.field !== undefined ? ` naming ${JSON.stringify(reply.field)}` : ''}`);
        if (c.token === 'session' && (rv === 10002 || rv === 40104)) await recover();
      }
    }
    if (reply?.reboot === true || reply?.reboot === 1) {
      problems.push(`the terminal restarts (reboot in the reply) after ${c.what}`);
      await recover();
    }
    if (out.error) {
      // The connection went down: is the terminal still there, and is our session?
      const alive = await call('GetDeviceFunList', {}, token);
      if ((alive.json as Values | undefined)?.retvalue !== 0) await recover();
    }
    // A refused write leaves everything as it was; a taken one reads back what it wrote.
    if (before) {
      const after = await snapshot(reads);
      const refused = typeof rv === 'number' && rv !== 0 && !CHANGING_CODES.has(rv);
      for (const [i, a] of after.entries()) {
        // What this request broke (a read that did not fit before is an earlier request's doing, reported there).
        if (a.fits.v === 'bad' && before[i].fits.v !== 'bad') problems.push(`the read afterwards does not fit the contract: ${a.fits.why}`);
        if (refused || out.error) {
          if (!deepEqual(before[i].reply, a.reply)) problems.push(`refused (${rv ?? out.error}), yet ${a.name} changed: ${clip(JSON.stringify(before[i].reply), 200)} → ${clip(JSON.stringify(a.reply), 200)}`);
          const [t0, t1] = [before[i].clock, a.clock];
          if (t0 !== undefined && t1 !== undefined && (t1 - t0 < -60_000 || t1 - t0 > 180_000)) problems.push(`refused (${rv}), yet the device clock moved by ${Math.round((t1 - t0) / 60_000)} min`);
        }
      }
      if (!pair && rv === 0 && verdict.v === 'ok' && verdict.values && !authCase) {
        // A write taken: a read keyed by what the write named (GetUserInfo by the UserID of adduser, edituser) answers
        // what was written, field for field of the same name and kind.
        for (const [i, a] of after.entries()) {
          const r = a.raw as Values | undefined;
          const keys = Object.keys(SPECS[a.name].request);
          if (!keys.length || !keys.every((k) => own(verdict.values!, k)) || !isPlainObject(r) || r.retvalue !== 0) continue;
          for (const [k, v] of Object.entries(verdict.values)) {
            const [w, rd] = [SPECS[c.call].request[k], SPECS[a.name].response[k]];
            if (rd && w.kind === rd.kind && own(r, k) && !deepEqual(r[k], v)) problems.push(`wrote ${k} = ${clip(JSON.stringify(v), 80)}, ${reads[i].name} answers ${clip(JSON.stringify(r[k]), 80)}`);
          }
        }
      }
      if (pair && rv === 0 && verdict.v === 'ok' && verdict.values && !authCase) {
        // Read back what was written (fields the device derives: NOT_VERBATIM).
        const r = after[0].raw as Values;
        for (const [k, v] of Object.entries(verdict.values)) {
          if (NOT_VERBATIM[c.call]?.[k]) continue;
          if (!deepEqual(r?.[k], v)) problems.push(`wrote ${k} = ${clip(JSON.stringify(v), 80)}, ${pair} answers ${clip(JSON.stringify(r?.[k]), 80)}`);
        }
        for (const [k, v] of Object.entries((before[0].reply as Values) ?? {})) {
          if (own(verdict.values, k) || k === 'retvalue' || v === undefined) continue;
          if (own(SPECS[c.call].request, k) && !deepEqual(r?.[k], v)) problems.push(`${k} was not written, yet ${pair} answers ${clip(JSON.stringify(r?.[k]), 80)} instead of ${clip(JSON.stringify(v), 80)}`);
        }
        if (c.call === 'GetDateTimeParam' && verdict.values.Mode === 0) {
          const set = Date.parse(`${verdict.values.Date}T${verdict.values.Time}:00Z`);
          const t = after[0].clock;
          // The contract's Time: sending back the time the device showed (this minute or the last) keeps its clock,
          // so a new TimeZone then moves the wall clock instead. Nothing to compare in that case.
          const shown = before[0].clock;
          const kept = shown !== undefined && (shown === set || shown - set === 60_000);
          if (!kept && (t === undefined || Number.isNaN(t) || t < set || t - set > 180_000)) problems.push(`set the clock to ${verdict.values.Date} ${verdict.values.Time}; the device answers ${r?.Date} ${r?.Time}`);
        }
      }
    }
    if (c.call === 'EditPwd' && !authCase) {
      const changed = await restorePassword(c, verdict, rv);
      if (changed) problems.push(changed);
    }
    if (problems.length) {
      const sent = `${wire.method} ${wire.path.replace(/_t=\d+&?/, '').replace(/\?$/, '')}${wire.body ? ` ${clip(showBytes(wire.body), 200)}` : ''}`;
      const got = out.error ? out.error : `HTTP ${out.status} ${out.file ? `file ${out.file.type} ${out.file.size} bytes` : clip(JSON.stringify(reply), 200)}`;
      throw new Problem(`${problems.join('\n')}\n  case: ${c.what}\n  expected: ${verdict.v === 'ok' ? 'taken' : verdict.v === 'bad' ? `refused (${verdict.why})` : `either (${verdict.why})`}\n  sent: ${sent}\n  got: ${got}`);
    }
  };

  const runProperty = async <T>(id: string, arb: fc.Arbitrary<T>, examples: T[], body: (x: T) => Promise<void>) => {
    const [callName, kind] = id.split(':');
    const matches = (x: string) => x === id || x === callName || x === `:${kind}`;
    if ((o.only?.length && !o.only.some(matches)) || o.skip?.some(matches)) return;
    properties++;
    const seed = propertySeed(o.seed, id);
    const details = await fc.check(fc.asyncProperty(arb, body), {
      seed,
      // fast-check counts the examples among numRuns: the random runs come on top of them.
      numRuns: examples.length + o.runs,
      examples: examples.map((e) => [e] as [T]),
      ...(o.path ? { path: o.path } : {}),
      endOnFailure: o.shrink === false,
    });
    if (!details.failed) return;
    const err = details.errorInstance;
    if (err instanceof Error && !(err instanceof Problem)) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    failures.push({
      id,
      call: callName,
      kind,
      problem: detail.split('\n')[0],
      detail,
      report: clip(fc.defaultReportMessage(details) ?? '', 4000),
      seed,
      path: details.counterexamplePath,
    });
    log(`✘ ${id}: ${detail.split('\n')[0]}`);
  };

  /** Paths outside the calls: %-junk in the console's static paths and in /goform/ names. Static answers need no envelope; /goform/ ones do. */
  const checkPath = async (path: string) => {
    const out = await http.send({ method: 'GET', path, headers: { 'Cache-Control': 'no-cache' } });
    const problems: string[] = [];
    if (out.error) problems.push(out.error);
    else if ((out.status ?? 0) >= 500) problems.push(`HTTP ${out.status}`);
    else if (isGoform(path)) {
      const r = out.json as Values | undefined;
      if (!isPlainObject(r) || typeof r.retvalue !== 'number' || !Number.isInteger(r.retvalue) || r.retvalue === 0) problems.push(`not an envelope with an error code: HTTP ${out.status} ${out.file ? `${out.file.type || 'no type'}, ${out.file.size} bytes` : clip(JSON.stringify(out.json), 100)}`);
    }
    if (out.error) {
      const alive = await call('GetDeviceFunList', {}, token);
      if ((alive.json as Values | undefined)?.retvalue !== 0) await recover();
    }
    if (problems.length) throw new Problem(`${problems.join('\n')}\n  sent: GET ${path}\n  got: ${out.error ?? `HTTP ${out.status} ${out.file ? `${out.file.type || 'no type'}, ${out.file.size} bytes` : clip(JSON.stringify(out.json), 200)}`}`);
  };
  /** A path the server takes for a call, as it reads it (dot segments resolved, %2e%2e too, as URLs are parsed). */
  const isGoform = (p: string) => new URL(p, 'http://terminal').pathname.startsWith(GOFORM_PREFIX);
  const isCallPath = (p: string) => {
    try {
      return own(SPECS, decodeURIComponent(p.slice(GOFORM_PREFIX.length)));
    } catch {
      return false;
    }
  };
  const PATHS = [
    '/%E0%A4%A',
    '/%',
    '/%FF',
    '/%C0%AF',
    '/%ED%A0%80',
    '/%00',
    '/index.html%00',
    '/..%2f..%2fetc%2fpasswd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/a%ZZ',
    `/${'x'.repeat(4000)}`,
    '/goform/',
    '/goform/%FF',
    '/goform/%E0%A4%A',
    '/goform/__proto__',
    '/goform/constructor',
    '/goform/toString',
    '/goform/hasOwnProperty',
    '/goform/chklogin/x',
    '/goform/chklogin%00',
    '/goform/../index.html',
    '/goform/%2e%2e/index.html',
  ];
  const pathArb = fc.oneof(fc.constantFrom(...PATHS), fc.stringMatching(/^\/(goform\/)?[%A-Za-z0-9._~-]{0,40}$/)).filter((p) => !isCallPath(p));

  // Sign-in last: wrong passwords close sign-in from this address for a while (the illegal-login lock), and logout before it.
  const order = Object.keys(SPECS).sort((a, b) => Number(a === 'chklogin') - Number(b === 'chklogin') || Number(a === 'logout') - Number(b === 'logout'));
  try {
    // Static paths first: after sign-in has been fuzzed, signing in again may be locked for a while.
    // A terminal with no console installed answers 503 to every static path, by design: then only /goform/ ones.
    const root = await http.send({ method: 'GET', path: '/', headers: {} });
    if (root.status === 503) skipped.push('static paths but /goform/ ones: no console installed (GET / answers 503)');
    await runProperty('static:paths', root.status === 503 ? pathArb.filter(isGoform) : pathArb, root.status === 503 ? PATHS.filter(isGoform) : PATHS, checkPath);
    for (const name of order) {
      if (own(NEVER_SENT, name)) {
        skipped.push(`${name}: ${NEVER_SENT[name]}`);
        continue;
      }
      if (!o.allowWrites && !isReadOnly(name)) {
        skipped.push(`${name}: changes the device (--allow-writes)`);
        continue;
      }
      const base = baseOf(name);
      const sample = fc.sample(base.malformed, { seed: propertySeed(o.seed, name), numRuns: 1 })[0];
      const t0 = Date.now();
      for (const m of mutators(name, base)) await runProperty(`${name}:${m.kind}`, m.arb, m.examples(sample), check);
      log(`${name}: ${Date.now() - t0} ms`);
    }
  } finally {
    http.close();
  }
  return { failures, properties, requests: http.requests, ms: Date.now() - started, skipped };

}

/** Fields of a settings pair whose read does not answer what was written, and why. Every other field must read back as written. */
const NOT_VERBATIM: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  GetDateTimeParam: {
    Date: 'the read answers the device clock now (a Mode 0 write sets it: checked apart, within 3 minutes)',
    Time: 'the same',
  },
};

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== typeof b || typeof a !== 'object' || a === null || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object).filter((k) => (a as Values)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as Values)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => own(b as object, k) && deepEqual((a as Values)[k], (b as Values)[k]));
}
