// The simulated terminal's door (contract/door.ts; docs/API.md, "The door"):
// the relay that drives the lock, with its delay; the sensor following it (a
// person pushes the door open a moment after the lock releases and it swings
// shut a moment after they pass); the held-open and forced alarms; and the
// modes an administrator sets, which the store keeps (remain open and remain
// closed survive a restart; open now, like everything else here, lives in
// memory and ends with it). In normal mode the always-open and always-closed
// periods rule the lock, read from the access area when asked and once a
// minute, so a period's start or end shows within a minute.
//
// Every change is a live event: 3 the door opened (unlocked, or swung open),
// 4 forced, 5 an alarm, 6 closed (locked, or swung shut) and the actions'
// own kinds (7 to 10). An opening the sensor will report is announced by the
// sensor, and a release while the door stands open by its closing, so one
// pass reads "opened", "closed" once each.
import { DOOR_NOT_LOCK, DOOR_SECONDS, NO_RELAY } from '../contract/codes.ts';
import { DOOR_MODES, OPEN_NOW } from '../contract/door.ts';
import { refuse, type CallImpl, type Context, type DeviceState } from './types.ts';
import type { DeviceModel } from './model.ts';
import type { Store } from './store.ts';
import { deviceTime } from './clock.ts';
import { periodsOf, seeds as accessSeeds, type PeriodTimes } from './areas/access.ts';

/** Live event kinds of the door (contract/events.ts). */
export const DOOR_EVENT = { opened: 3, forced: 4, alarm: 5, closed: 6 } as const;
/** The event of each action (GetDoorAction's Action: 0 to 2 set that mode, 3 opens now). */
const ACTION_EVENT = [10, 8, 9, 7];

type Mode = 0 | 1 | 2;

const DAY = 86_400_000;
const wallMs = (t: string) => Date.parse(`${t.slice(0, 16).replace(' ', 'T')}:00Z`);

/** Occurrence j of a period starting at `start` (wall ms): j cycles later; NaN where the day does not exist (31 February). */
function occurrence(start: number, cycle: number, j: number): number {
  if (cycle === 1 || cycle === 2) return start + j * DAY * (cycle === 1 ? 1 : 7);
  const d = new Date(start);
  const [y, m] = cycle === 3 ? [d.getUTCFullYear(), d.getUTCMonth() + j] : [d.getUTCFullYear() + j, d.getUTCMonth()];
  const at = Date.UTC(y, m, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes());
  return new Date(at).getUTCDate() === d.getUTCDate() ? at : NaN;
}

/** Whether wall time `t` lies in one of the period's occurrences (SPEC §3 Period: once, daily, weekly, monthly, yearly). */
export function inPeriod(p: PeriodTimes, t: number): boolean {
  const start = wallMs(p.Start);
  const length = wallMs(p.End) - start;
  if (!(t >= start && length > 0)) return false;
  if (!p.Cycle) return t < start + length;
  const d = new Date(start);
  const w = new Date(t);
  // The last occurrence that may have begun by t, then the ones before it that the length still reaches.
  const last = p.Cycle <= 2 ? Math.floor((t - start) / (DAY * (p.Cycle === 1 ? 1 : 7))) : p.Cycle === 3 ? (w.getUTCFullYear() - d.getUTCFullYear()) * 12 + w.getUTCMonth() - d.getUTCMonth() : w.getUTCFullYear() - d.getUTCFullYear();
  for (let j = last; j >= 0 && j > last - 400; j--) {
    const at = occurrence(start, p.Cycle, j);
    if (at <= t && t < at + length) return true;
    if (at + length + 366 * DAY < t) break;
  }
  return false;
}

export class Door {
  private relay = false;
  private pulseEnd = 0;
  private open = false;
  /** Someone keeps the door open: it does not swing shut by itself. */
  private held = false;
  private heldOpen = false;
  private forced = false;
  private fault = false;
  private since = '';
  private pulseTimer?: NodeJS.Timeout;
  private sensorTimer?: NodeJS.Timeout;
  private readonly minute: NodeJS.Timeout;

  constructor(
    private readonly model: DeviceModel,
    private readonly store: Store<DeviceState>,
    private readonly now: () => number,
    private readonly emit: (kind: number) => void,
  ) {
    this.reset();
    // A period that starts or ends while nobody asks: within a minute.
    this.minute = setInterval(() => this.settle(), 60_000);
    this.minute.unref();
  }

  /** The terminal has a relay (`door` in its function list). */
  get present(): boolean {
    return this.model.funs.includes('door');
  }

  private access() {
    return { ...accessSeeds.AccessControl, ...this.store.get().settings.AccessControl } as { RelayMode: number; DoorSensor: number; RelayDelay: number };
  }
  /** The relay delay: how long a pass, and open now without Seconds, keeps the door unlocked. */
  get delay(): number {
    return this.access().RelayDelay;
  }
  /** An action can open it: it has a relay, and the relay drives the lock. */
  get opens(): boolean {
    return this.present && this.lock;
  }
  /** The relay drives the lock (RelayMode 2, door open). */
  get lock(): boolean {
    return this.access().RelayMode === 2;
  }
  private get sensor(): boolean {
    return this.access().DoorSensor !== 0;
  }
  get mode(): Mode {
    return this.store.get().door?.Mode ?? 0;
  }
  /** What the periods say now: 0 none, 1 always open, 2 always closed (it wins). */
  period(): 0 | 1 | 2 {
    const t = wallMs(deviceTime({ store: this.store, now: this.now }));
    const p = periodsOf(this.store.get());
    return p.closed.some((x) => inPeriod(x, t)) ? 2 : p.open.some((x) => inPeriod(x, t)) ? 1 : 0;
  }
  /** The mode or the periods keep the lock released (not a pulse). */
  private heldBy(period: number): boolean {
    return this.present && this.lock && (this.mode === 1 || (this.mode === 0 && period === 1));
  }
  /** May a verification at the reader open it: not while it remains closed, nor in normal mode during an always-closed period. */
  private passable(): boolean {
    return this.present && this.lock && this.mode !== 2 && !(this.mode === 0 && this.period() === 2);
  }

  private stamp(): void {
    this.since = deviceTime({ store: this.store, now: this.now });
  }
  private after(ms: number, f: () => void): void {
    clearTimeout(this.sensorTimer);
    this.sensorTimer = setTimeout(f, ms);
    this.sensorTimer.unref();
  }

  /**
   * Bring the relay to what the mode, the periods and a running pulse want.
   * `kind`: the action that caused it, announced whatever changed; without
   * one a change of the lock is announced (3 or 6) unless the sensor will.
   */
  settle(kind?: number, period = this.period()): void {
    const want = this.heldBy(period) || (this.present && this.lock && this.pulseEnd > 0);
    const changed = want !== this.relay;
    this.relay = want;
    if (changed) this.stamp();
    // Locked before the person pushed: the door stays shut.
    if (changed && !want && !this.open) clearTimeout(this.sensorTimer);
    if (kind) this.emit(kind);
    else if (changed && !(want ? this.pulseEnd && this.sensor : this.open)) this.emit(want ? DOOR_EVENT.opened : DOOR_EVENT.closed);
    if (changed && !want && this.open) this.released();
  }

  /** The relay released (or the pulse ended) with the door open: it swings shut, or, held, the alarm comes. */
  private released(): void {
    if (!this.held) this.after(this.model.door.sensorMs, () => this.shut());
    else if (!this.relay) this.after(this.model.door.heldOpenMs, () => this.alarm());
  }

  /** The relay for `ms`; a person goes through: the door swings open a moment later (with a sensor). */
  private pulse(ms: number, kind?: number): void {
    this.pulseEnd = this.now() + ms;
    clearTimeout(this.pulseTimer);
    this.pulseTimer = setTimeout(() => {
      this.pulseEnd = 0;
      this.settle();
      if (this.open && this.relay) this.released();
    }, ms);
    this.pulseTimer.unref();
    this.settle(kind);
    if (this.sensor && !this.open && this.relay) {
      this.after(Math.min(this.model.door.sensorMs, ms / 2), () => {
        this.open = true;
        this.stamp();
        this.emit(DOOR_EVENT.opened);
      });
    }
  }

  /** Open now (GetDoorAction 3, ExecuteCommand 300): for `seconds`, or the relay delay. */
  openNow(seconds?: number): number {
    const s = seconds ?? this.delay;
    this.pulse(s * 1000, ACTION_EVENT[OPEN_NOW]);
    return s;
  }

  /** Actions 0 to 2: the mode of that number, kept in the store. Remain closed locks at once, a running open now too. */
  async setMode(mode: Mode): Promise<void> {
    const since = deviceTime({ store: this.store, now: this.now });
    await this.store.update((s) => {
      if (mode) s.door = { Mode: mode, Since: since };
      else delete s.door;
    });
    if (mode === 2) {
      this.pulseEnd = 0;
      clearTimeout(this.pulseTimer);
    }
    this.stamp();
    this.settle(ACTION_EVENT[mode]);
  }

  /** A person verified at the reader, or the exit button: the relay for the relay delay, if the door may be passed. */
  pass(): void {
    if (this.passable()) this.pulse(this.delay * 1000);
  }

  /** Someone forces the door: with a sensor, it stands open while locked (Forced) until shut(). */
  force(): void {
    if (!this.present || !this.sensor || this.open) return;
    clearTimeout(this.sensorTimer);
    this.open = true;
    this.held = true;
    this.forced = !this.relay;
    this.stamp();
    this.emit(this.forced ? DOOR_EVENT.forced : DOOR_EVENT.opened);
  }

  /** Someone keeps the door open: the next opening (or this one) does not swing shut; past heldOpenMs after the release, the alarm. */
  hold(): void {
    this.held = true;
    if (this.open && !this.relay && !this.heldOpen) this.after(this.model.door.heldOpenMs, () => this.alarm());
  }

  private alarm(): void {
    this.heldOpen = true;
    this.stamp();
    this.emit(DOOR_EVENT.alarm);
  }

  /** The door swings shut: the alarms end. */
  shut(): void {
    clearTimeout(this.sensorTimer);
    const was = this.open;
    this.open = this.held = this.heldOpen = this.forced = false;
    if (!was) return;
    this.stamp();
    this.emit(DOOR_EVENT.closed);
  }

  /** The sensor's contact reads neither open nor closed (a cut wire), or reads again. */
  setFault(on: boolean): void {
    if (on === this.fault) return;
    this.fault = on;
    this.stamp();
    this.emit(on ? DOOR_EVENT.alarm : DOOR_EVENT.closed);
  }

  /** Start or restart: what lives in memory is gone (open now ends); the mode comes back from the store. */
  reset(): void {
    clearTimeout(this.pulseTimer);
    clearTimeout(this.sensorTimer);
    this.pulseEnd = 0;
    this.open = this.held = this.heldOpen = this.forced = this.fault = false;
    this.relay = this.heldBy(this.period());
    this.since = this.store.get().door?.Since ?? deviceTime({ store: this.store, now: this.now });
  }

  stop(): void {
    clearTimeout(this.pulseTimer);
    clearTimeout(this.sensorTimer);
    clearInterval(this.minute);
  }

  /** SetDoorState's answer. */
  state() {
    const period = this.period();
    this.settle(undefined, period);
    const sensor = this.sensor;
    return {
      Mode: this.mode,
      Lock: this.lock ? 1 : 0,
      Relay: this.relay ? 1 : 0,
      Left: this.relay && this.pulseEnd && !this.heldBy(period) ? Math.max(0, Math.ceil((this.pulseEnd - this.now()) / 1000)) : 0,
      Sensor: !sensor ? 0 : this.fault ? 3 : this.open ? 2 : 1,
      HeldOpen: sensor && this.heldOpen ? 1 : 0,
      Forced: sensor && this.forced ? 1 : 0,
      Period: period,
      Since: this.since,
    };
  }
}

/** The operation log's Detail of an action: which, and for how long. */
export function actionText(ctx: Context, p: Record<string, unknown>): string {
  return p.Action === OPEN_NOW ? `open now, ${p.Seconds ?? ctx.door?.delay} s` : DOOR_MODES[p.Action as Mode];
}

const door = (ctx: Context): Door => {
  if (!ctx.door?.present) refuse(NO_RELAY);
  return ctx.door as Door;
};

export const handlers: Record<string, CallImpl> = {
  SetDoorState: { handle: (ctx) => door(ctx).state() },
  GetDoorAction: {
    invalidCodes: { Seconds: DOOR_SECONDS },
    async handle(ctx, p) {
      const d = door(ctx);
      if (p.Seconds !== undefined && p.Action !== OPEN_NOW) refuse(DOOR_SECONDS, { field: 'Seconds' });
      if (!d.lock) refuse(DOOR_NOT_LOCK);
      if (p.Action === OPEN_NOW) d.openNow(p.Seconds as number | undefined);
      else await d.setMode(p.Action as Mode);
      return {};
    },
  },
};
