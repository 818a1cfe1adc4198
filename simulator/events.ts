// Live events on the simulated terminal (contract/events.ts, docs/API.md
// "Live events"): a ring of the newest, the stream that sends them as they
// happen, and where they come from: at random (npm start), on a schedule a
// test sets, a person at the reader a test sends, or the factory test's
// test_event (contract/maintenance.ts), the same through the API.
import type { ServerResponse } from 'node:http';
import { EVENTS_KEPT, EVENTS_PER_PAGE, EVENT_HEARTBEAT_MS } from '../contract/events.ts';
import type { ResponseOf } from '../contract/index.ts';
import { refuse, type CallImpl, type Context, type DeviceState } from './types.ts';
import type { Store } from './store.ts';

export type LiveEvent = ResponseOf<'EventStream'>;
/** What makes an event: its kind and, at the reader, who and how. Id and Time are the terminal's. */
export type Happening = Partial<Omit<LiveEvent, 'Id' | 'Time'>> & Pick<LiveEvent, 'Kind'>;

/** The kinds of contract/events.ts by name, for tests and the CLI. */
export const KIND = { verified: 1, refused: 2, opened: 3, forced: 4, alarm: 5, closed: 6, openNow: 7, remainOpen: 8, remainClosed: 9, normal: 10 } as const;

/** How often an open stream checks that its session still holds (a signed-out session's stream ends within it). */
const ALIVE_CHECK_MS = 500;

export class EventHub {
  private ring: LiveEvent[] = [];
  private last = 0;
  private readonly listeners = new Set<(e: LiveEvent) => void>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: Store<DeviceState>,
    /** "YYYY-MM-DD HH:MM:SS" of the terminal's clock, in its time zone. */
    private readonly clock: () => string,
  ) {}

  /** The newest event's Id (0: none since the terminal started). */
  get lastId(): number {
    return this.last;
  }

  /** Something happened: numbered, kept (the newest EVENTS_KEPT), sent to every open stream. */
  emit(h: Happening): LiveEvent {
    const e: LiveEvent = { Id: ++this.last, Time: this.clock(), Kind: h.Kind, UserID: h.UserID ?? '', UserName: h.UserName ?? '', Mode: h.Mode ?? 0 };
    this.ring.push(e);
    if (this.ring.length > EVENTS_KEPT) this.ring.shift();
    for (const l of this.listeners) l(e);
    return e;
  }

  /**
   * A person at the reader: an enrolled user verifies (Kind 1, with the
   * name as stored), an ID the terminal does not have is refused (Kind 2,
   * nobody named); `refused` makes an enrolled user's attempt fail (the
   * wrong finger). Mode: how (IdentifyMode numbers), 1 by default.
   */
  present(UserID: string, Mode = 1, refused = false): LiveEvent {
    const user = this.store.get().users.find((u) => u.UserID === UserID);
    if (!user) return this.emit({ Kind: KIND.refused, Mode });
    return this.emit({ Kind: refused ? KIND.refused : KIND.verified, UserID, UserName: user.UserName, Mode });
  }

  /** Events at set moments from now (ms): the schedule a test controls. */
  schedule(plan: ReadonlyArray<{ afterMs: number } & Happening>): void {
    for (const { afterMs, ...h } of plan) this.later(afterMs, () => this.emit(h));
  }

  /** In `ms`, unless stop() comes first. */
  private later(ms: number, f: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      f();
    }, ms);
    this.timers.add(t);
  }

  /**
   * Events at random, one every `meanMs` on average, until stop(): a lively
   * door for npm start. With the door (door.ts) its events come from it: a
   * verified person and the exit button go through it, now and then someone
   * forces it or holds it open (shut again a while later).
   */
  random(meanMs: number, door?: DoorHooks): void {
    const next = () =>
      this.later(meanMs * (0.25 + Math.random() * 1.5), () => {
        const users = this.store.get().users;
        const roll = Math.random();
        const user = users[Math.floor(Math.random() * users.length)];
        if (roll < 0.6 && user) {
          this.present(user.UserID, 1 + Math.floor(Math.random() * 3));
          door?.pass();
        } else if (roll < 0.75) this.present(String(90000 + Math.floor(Math.random() * 9999)), 3);
        else if (!door) this.emit({ Kind: roll < 0.92 ? KIND.opened : roll < 0.97 ? KIND.forced : KIND.alarm });
        else if (roll < 0.92) door.pass();
        else {
          if (roll < 0.96) door.force();
          else (door.hold(), door.pass());
          // Long enough for a held door's alarm (door.heldOpenMs after the relay delay).
          this.later(Math.max(meanMs, 20_000), () => door.shut());
        }
        next();
      });
    next();
  }

  /** The events after `after` the terminal still holds, oldest first; all of them when `after` is above the newest (the terminal restarted since). */
  since(after: number): LiveEvent[] {
    return after > this.last ? [...this.ring] : this.ring.filter((e) => e.Id > after);
  }

  /** A restart: the ring is memory, numbering starts again at 1 (what is scheduled still happens). */
  reset(): void {
    this.ring = [];
    this.last = 0;
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /**
   * Answer a stream: the events after `after`, then each as it happens, a
   * comment every heartbeat; it ends when `alive` says the session is over
   * or the client goes.
   */
  open(res: ServerResponse, after: number, alive: () => boolean, heartbeatMs = EVENT_HEARTBEAT_MS): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // nginx: pass it on as it comes (docs/EMBEDDING.md).
      'X-Accel-Buffering': 'no',
      'X-Content-Type-Options': 'nosniff',
    });
    const send = (e: LiveEvent) => res.write(`id: ${e.Id}\ndata: ${JSON.stringify(e)}\n\n`);
    res.write('retry: 2000\n: live\n\n');
    for (const e of this.since(after)) send(e);
    this.listeners.add(send);
    let quiet = 0;
    const check = setInterval(() => {
      if (!alive()) return res.end();
      quiet += ALIVE_CHECK_MS;
      if (quiet >= heartbeatMs) {
        quiet = 0;
        res.write(':\n\n');
      }
    }, ALIVE_CHECK_MS);
    res.once('close', () => {
      clearInterval(check);
      this.listeners.delete(send);
    });
  }
}

/** What the random events do to the door (door.ts's Door). */
export interface DoorHooks {
  pass(): void;
  force(): void;
  hold(): void;
  shut(): void;
}

/** A stream the server opens once the call is checked: from which event on. */
export interface StreamReply {
  stream: { after: number };
}
export const isStreamReply = (v: unknown): v is StreamReply => typeof v === 'object' && v !== null && 'stream' in v;

/**
 * test_event: the contract's rules between its fields (each has passed its
 * own), then the event as the reader or the door would make it. A person
 * (Kinds 1 and 2) needs how they presented themselves; the door and the
 * alarm name nobody.
 */
function testEvent(ctx: Context, p: Record<string, unknown>) {
  const hub = ctx.events!;
  const kind = p.Kind as number;
  const id = typeof p.UserID === 'string' ? p.UserID : '';
  const person = kind === KIND.verified || kind === KIND.refused;
  if (!person) {
    if (id) refuse(10005, { field: 'UserID' });
    if (p.Mode) refuse(10005, { field: 'Mode' });
    return hub.emit({ Kind: kind });
  }
  if (p.Mode === undefined) refuse(10003, { field: 'Mode' });
  if (p.Mode === 0) refuse(10005, { field: 'Mode' });
  const known = !!id && ctx.store.get().users.some((u) => u.UserID === id);
  if (kind === KIND.verified) {
    if (!id) refuse(10003, { field: 'UserID' });
    if (!known) refuse(40401, { field: 'UserID' });
  }
  // A refused ID the terminal does not have names nobody (present() does so for an unknown one).
  return hub.present(known ? id : '', p.Mode as number, kind === KIND.refused);
}

export const handlers: Record<string, CallImpl> = {
  test_event: { handle: testEvent },
  EventStream: { handle: (_ctx: Context, p) => ({ stream: { after: Number(p.After ?? 0) } }) },
  SetEventList: {
    handle(ctx, p) {
      const hub = ctx.events!;
      return { Last: hub.lastId, List: hub.since(Number(p.After ?? 0)).slice(0, EVENTS_PER_PAGE) };
    },
  },
};
