// A simulated terminal for the Users area's tests (users-*.test.ts): a device
// signed in as the administrator, its calls and uploads; and the users,
// answers and images those tests send and expect.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodePng } from '../../simulator/png.ts';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { loadModel, type ModelOverrides } from '../../simulator/model.ts';
import type { User } from '../../simulator/types.ts';
import { CALLS, type CallName } from '../../contract/index.ts';
import { callSimulator } from '../support/helpers.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

export type Rec = Record<string, unknown>;
export const tmp = () => mkdtempSync(join(tmpdir(), 'users-'));

export interface Device {
  sim: Simulator;
  token: string;
  dir: string;
  call(name: CallName, params?: Rec): Promise<Rec>;
  /** A multipart POST (files as Blobs with a name). */
  upload(name: 'UploadUserPhoto' | 'GetExcelAddUser', parts: Record<string, string | { data: Uint8Array; name: string; type?: string }>): Promise<Rec>;
  raw(name: CallName, params?: Rec): Promise<Response>;
  users(): readonly User[];
  user(id: string): User | undefined;
  close(): Promise<void>;
}

export async function device(overrides: ModelOverrides = {}, options: { profile?: string; dir?: string; now?: () => number } = {}): Promise<Device> {
  const dir = options.dir ?? tmp();
  const sim = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(dir, 'store.json'), model: loadModel(options.profile ?? 'default', overrides), now: options.now });
  const login = await callSimulator(sim.url, 'chklogin', { username: 'admin', password: TEST_ADMIN.password });
  const token = login.token as string;
  const d: Device = {
    sim,
    token,
    dir,
    call: (name, params = {}) => callSimulator(sim.url, name, params, token),
    async upload(name, parts) {
      const form = new FormData();
      for (const [k, v] of Object.entries(parts)) {
        if (typeof v === 'string') form.append(k, v);
        else form.append(k, new Blob([new Uint8Array(v.data)], { type: v.type ?? 'application/octet-stream' }), v.name);
      }
      const res = await fetch(`${sim.url}/goform/${name}?_t=1`, { method: 'POST', headers: { 'X-Token': token }, body: form });
      return (await res.json()) as Rec;
    },
    raw(name, params = {}) {
      const spec = CALLS[name];
      if (spec.method === 'GET') return fetch(`${sim.url}/goform/${name}?${new URLSearchParams(params as Record<string, string>)}`, { headers: { 'X-Token': token } });
      return fetch(`${sim.url}/goform/${name}`, { method: 'POST', headers: { 'X-Token': token, 'Content-Type': 'application/json' }, body: JSON.stringify(params) });
    },
    users: () => sim.store.get().users,
    user: (id) => sim.store.get().users.find((u) => u.UserID === id),
    close: () => sim.close(),
  };
  return d;
}

export const person = (UserID: string, extra: Rec = {}): Rec => ({ UserID, UserName: `Person ${UserID}`, Admin: 0, Group: 0, IdentifyMode: 0, Shift: 0, ...extra });
export const err = (code: number, field?: string) => (field === undefined ? { retvalue: code, msg: `err.${code}` } : { retvalue: code, msg: `err.${code}`, field });
export const limit = (field: string) => ({ retvalue: 10004, msg: 'msg.addUpToLimit', field });

// Images built byte by byte: a 1x1 PNG and a baseline 1x1 JPEG.
export const png = () => encodePng(1, 1, Uint8Array.of(0x2a, 0x7f, 0xd4));
/** SOI, JFIF, a flat quantisation table, a 1x1 grey frame, one-code Huffman tables, one all-zero block, EOI. */
export function jpeg(): Buffer {
  return Buffer.from([
    ...[0xff, 0xd8],
    ...[0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0],
    ...[0xff, 0xdb, 0x00, 0x43, 0x00, ...new Array(64).fill(1)],
    ...[0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00],
    ...[0xff, 0xc4, 0x00, 0x14, 0x00, 1, ...new Array(15).fill(0), 0x00],
    ...[0xff, 0xc4, 0x00, 0x14, 0x10, 1, ...new Array(15).fill(0), 0x00],
    ...[0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00],
    0x3f, // DC difference 0, end of block, padded with ones
    ...[0xff, 0xd9],
  ]);
}
