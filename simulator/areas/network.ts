// Simulated terminal: the network settings area. `seeds` are factory values of
// its settings pairs (the generic pair handlers in ../settings.ts serve them);
// `handlers` are the calls that need more than storing a form: the Wi-Fi save
// (joining a network), the Wi-Fi scan and join, the Bluetooth search and
// pairing. The radio side (networks and devices in range, how long a scan
// takes, injected failures) is `surroundings(store)`: per running simulator,
// not stored, so a restart brings the defaults back. Tests change it through
// the simulator's store: `surroundings(terminal.sim.store).joinFails = true`.
import { refuse, type CallImpl, type Context } from '../types.ts';
import { JOIN_FAILED, PAIR_FAILED, SCAN_FAILED } from '../../contract/codes.ts';

export const seeds: Record<string, Record<string, unknown>> = {
  InternetParam: { WanMode: 0, AutoMode: 1, Dns: '192.168.1.1' },
  EthernetParam: { IpMode: 0, Ip: '192.168.1.201', Mask: '255.255.255.0', Gateway: '192.168.1.1' },
  // Factory state: access point, so a new terminal can be reached to set it up.
  Wirless: { WifiMode: 1, Ssid: '', Password: '', Security: 1, Encryption: 0, Identity: '', Ca: 0, Eap: 0, Inner: 0, ApNameMode: 0, ApName: '', ApPassword: '12345678' },
  CommMode: { Mode: 0, Port: 5010, PwdSwitch: 0, Password: '', ServerType: 0, ServerIp: '192.168.1.100', ServerUrl: '' },
  RestParam: { Protocol: 0, Port: 80, RestApi: 0, HostNames: '', IdleMinutes: 10 },
  CloudParam: { CloudCode: 'C7X2K9Q4', CloudPassword: 'cloud-2026', CloudServer: 'cloud.example.com' },
  BluetoothParam: { BleOption: 1, BleServer: 1, BleClient: 0, BleAddress: '' },
  MqttCloudParam: { Switch: 0, Users: '', Password: '' },
};

export interface WifiNetwork {
  Ssid: string;
  Security: 0 | 1 | 2;
  Signal: number;
  Password?: string;
  Identity?: string;
  /** Not broadcast: scans do not list it; it can be joined by name (add Wi-Fi). */
  hidden?: boolean;
}

export interface BleDevice {
  Name: string;
  Address: string;
  Rssi: number;
}

export interface Surroundings {
  networks: WifiNetwork[];
  devices: BleDevice[];
  /** How long a Wi-Fi scan, a join, a Bluetooth search and a pairing take (ms). */
  scanMs: number;
  joinMs: number;
  searchMs: number;
  pairMs: number;
  /** Injected faults: the next scans fail; every join fails (the device falls back to AP mode). */
  scanFails: boolean;
  joinFails: boolean;
  scan?: { done: number; failed: boolean };
  search?: { done: number; taken: boolean };
  /** Addresses the last completed Bluetooth search found. */
  found: string[];
}

const defaults = (): Surroundings => ({
  networks: [
    { Ssid: 'Office', Security: 1, Signal: 82, Password: 'office-2026' },
    { Ssid: 'Office-Guest', Security: 0, Signal: 64 },
    { Ssid: 'Corp-Secure', Security: 2, Signal: 55, Identity: 'alice', Password: 'corp-pass' },
    { Ssid: 'Warehouse', Security: 1, Signal: 31, Password: 'forklift-99' },
    // Device text is shown as text, never as markup.
    { Ssid: 'Café <b>Lobby</b>', Security: 0, Signal: 18 },
    { Ssid: 'Lab', Security: 1, Signal: 47, Password: 'hidden-lab', hidden: true },
  ],
  devices: [
    { Name: 'Door lock A', Address: '5C:F3:70:12:34:56', Rssi: -48 },
    { Name: 'Reader <B2>', Address: '5C:F3:70:AB:CD:EF', Rssi: -71 },
    { Name: 'Turnstile 3', Address: 'D8:A0:1D:00:11:22', Rssi: -83 },
  ],
  scanMs: 2000,
  joinMs: 1000,
  searchMs: 2000,
  pairMs: 800,
  scanFails: false,
  joinFails: false,
  found: [],
});

const all = new WeakMap<object, Surroundings>();

/** The radio surroundings of the simulator that owns `store`. */
export function surroundings(store: object): Surroundings {
  let s = all.get(store);
  if (!s) all.set(store, (s = defaults()));
  return s;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export { SCAN_FAILED, JOIN_FAILED, PAIR_FAILED };

type Wifi = Record<string, unknown>;
const wifi = (ctx: Context): Wifi => ({ ...seeds.Wirless, ...ctx.store.get().settings.Wirless });

interface JoinRequest {
  Ssid: string;
  Security: number;
  Password?: unknown;
  Identity?: unknown;
}

/** Try to join a network (takes `joinMs`); on failure the device falls back to AP mode, and the call is refused. */
async function join(ctx: Context, want: JoinRequest, store: Wifi): Promise<void> {
  const air = surroundings(ctx.store);
  await sleep(air.joinMs);
  const n = air.networks.find((x) => x.Ssid === want.Ssid);
  const ok =
    !air.joinFails &&
    n &&
    n.Security === want.Security &&
    (n.Security === 0 || n.Password === want.Password) &&
    (n.Security !== 2 || n.Identity === want.Identity);
  await ctx.store.update((s) => {
    s.settings.Wirless = ok ? { ...store, WifiMode: 0 } : { ...wifi(ctx), WifiMode: 1 };
  });
  if (!ok) refuse(JOIN_FAILED);
}

/** WPA/WPA2 Personal passwords are 8 to 63 characters. */
const psk = (security: unknown, password: unknown) => security !== 1 || /^.{8,63}$/.test(String(password ?? ''));

export const handlers: Record<string, CallImpl> = {
  // Saving station mode joins the network.
  GetWirless: {
    async handle(ctx, p) {
      const next = { ...wifi(ctx), ...p };
      if (next.WifiMode === 1) {
        await ctx.store.update((s) => {
          s.settings.Wirless = next;
        });
        return {};
      }
      if (!next.Ssid) refuse(10003, { field: 'Ssid' });
      if (!psk(next.Security, next.Password)) refuse(10005, { field: 'Password' });
      if (next.Security === 2 && !next.Identity) refuse(10003, { field: 'Identity' });
      await join(ctx, next as unknown as JoinRequest, next);
      return {};
    },
  },
  SetAllWirless: {
    handle(ctx) {
      const air = surroundings(ctx.store);
      air.scan = { done: ctx.now() + air.scanMs, failed: air.scanFails };
      return {};
    },
  },
  GetChooseWirless: {
    async handle(ctx, p) {
      const air = surroundings(ctx.store);
      if (p.Ssid === undefined) {
        air.scan ??= { done: ctx.now() + air.scanMs, failed: air.scanFails };
        if (ctx.now() < air.scan.done) return { retvalue: 'wait' };
        if (air.scan.failed) refuse(SCAN_FAILED);
        const w = wifi(ctx);
        const List = air.networks
          .filter((n) => !n.hidden)
          .sort((a, b) => b.Signal - a.Signal)
          .map((n) => ({ Ssid: n.Ssid, Security: n.Security, Signal: n.Signal, Connected: w.WifiMode === 0 && w.Ssid === n.Ssid ? 1 : 0 }));
        return { List };
      }
      const Ssid = String(p.Ssid);
      if (!Ssid) refuse(10003, { field: 'Ssid' });
      const Security = (p.Security as number | undefined) ?? air.networks.find((n) => n.Ssid === Ssid && !n.hidden)?.Security;
      if (Security === undefined) return refuse(10003, { field: 'Security' });
      if (!psk(Security, p.Password)) refuse(10005, { field: 'Password' });
      if (Security === 2 && !p.Identity) refuse(10003, { field: 'Identity' });
      const w = wifi(ctx);
      const next = { ...w, Ssid, Security, Password: p.Password ?? '', Identity: p.Identity ?? w.Identity };
      await join(ctx, { Ssid, Security, Password: p.Password, Identity: p.Identity }, next);
      return {};
    },
  },
  GetSearchBleDev: {
    handle(ctx) {
      const air = surroundings(ctx.store);
      if (!air.search || air.search.taken) air.search = { done: ctx.now() + air.searchMs, taken: false };
      if (ctx.now() < air.search.done) return { retvalue: 'wait' };
      air.search.taken = true;
      const List = [...air.devices].sort((a, b) => b.Rssi - a.Rssi);
      air.found = List.map((d) => d.Address);
      return { List };
    },
  },
  GetBleConnect: {
    async handle(ctx, p) {
      const air = surroundings(ctx.store);
      await sleep(air.pairMs);
      const address = String(p.Address).toUpperCase();
      const d = air.devices.find((x) => x.Address === address && air.found.includes(address));
      if (!d) return refuse(PAIR_FAILED);
      await ctx.store.update((s) => {
        const List = paired(s.settings);
        if (!List.some((x) => x.Address === d.Address)) List.push({ Name: d.Name, Address: d.Address });
        // The paired list lives in the store beside the pairs (it survives restarts).
        s.settings.BleDevGroup = { List };
      });
      return {};
    },
  },
  SetBleDevGroup: { handle: (ctx) => ({ List: paired(ctx.store.get().settings) }) },
};

function paired(settings: Record<string, Record<string, unknown>>): { Name: string; Address: string }[] {
  return [...((settings.BleDevGroup?.List as { Name: string; Address: string }[] | undefined) ?? [])];
}
