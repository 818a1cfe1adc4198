// The simulated terminal's Users area over HTTP: enrolment on the terminal
// (fingers and faces, its timings, capacities and profile) and photos.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { enrolment } from '../../simulator/areas/users.ts';
import { PHOTO_MAX_BYTES } from '../../contract/users.ts';
import { device, err, jpeg, limit, png, type Device, type Rec } from './users-support.ts';

const enrol = suite('enrolment on the terminal');

async function poll(d: Device, until = 5000): Promise<Rec> {
  const end = Date.now() + until;
  for (;;) {
    const r = await d.call('getOnlineEnrollStatus', { UserID: '1', Type: 1 });
    if (r.retvalue !== 'wait' || Date.now() > end) return r;
    await new Promise((res) => setTimeout(res, 20));
  }
}

enrol('success with short real timings: wait, then 0 once with the template stored, then 0 with nothing running', async () => {
  const d = await device({ enroll: { ms: 150, outcome: 'success', timeoutMs: 2000 } });
  try {
    const before = d.user('5')!.FPMask;
    assert.equal(await d.call('regfp', { UserID: '5', Finger: 9 }), { retvalue: 0 });
    assert.equal(await poll(d), { retvalue: 0 });
    assert.is(d.user('5')!.FPMask, before | (1 << 9));
    assert.is((await d.call('GetUserInfo', { UserID: '5' })).FPMask, before | (1 << 9));
    assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '5', Type: 1 }), { retvalue: 0 });
  } finally {
    await d.close();
  }
});

enrol('busy, fail, timeout and cancel (the terminal clock driven by the test)', async () => {
  let clock = 5_000_000;
  const d = await device({ enroll: { ms: 3000, outcome: 'success', timeoutMs: 30000 } }, { now: () => clock });
  const status = (extra: Rec = {}) => d.call('getOnlineEnrollStatus', { UserID: '2', Type: 0, ...extra });
  try {
    await d.sim.store.update((s) => {
      const u = s.users.find((x) => x.UserID === '2')!;
      u.Face = 0;
      u.FPMask = 0;
    });
    // Busy: one enrolment at a time, whoever asks.
    assert.equal(await status({ Start: 1 }), { retvalue: 0 });
    assert.equal(await status(), { retvalue: 'wait' });
    assert.equal(await d.call('regfp', { UserID: '3', Finger: 1 }), { retvalue: 40504, msg: 'msg.enrollBusy' });
    assert.equal(await status({ Start: 1 }), { retvalue: 40504, msg: 'msg.enrollBusy' });
    clock += 2999;
    assert.equal(await status(), { retvalue: 'wait' });
    assert.is(d.user('2')!.Face, 0);
    clock += 1;
    assert.equal(await status(), { retvalue: 0 });
    assert.is(d.user('2')!.Face, 1);
    assert.equal(await status(), { retvalue: 0 });

    // Fail: 40501 once, nothing stored.
    d.sim.model.enroll.outcome = 'fail';
    assert.equal(await d.call('regfp', { UserID: '2', Finger: 0 }), { retvalue: 0 });
    assert.equal(await status(), { retvalue: 'wait' });
    clock += 3000;
    assert.equal(await status(), { retvalue: 40501, msg: 'msg.enrollFailed' });
    assert.equal(await status(), { retvalue: 0 });
    assert.is(d.user('2')!.FPMask, 0);

    // Timeout: waits past ms, then 40502 at timeoutMs.
    d.sim.model.enroll.outcome = 'timeout';
    assert.equal(await d.call('regfp', { UserID: '2', Finger: 0 }), { retvalue: 0 });
    clock += 3000;
    assert.equal(await status(), { retvalue: 'wait' });
    clock += 26999;
    assert.equal(await status(), { retvalue: 'wait' });
    clock += 1;
    assert.equal(await status(), { retvalue: 40502, msg: 'msg.enrollTimeout' });
    assert.equal(await status(), { retvalue: 0 });
    assert.is(d.user('2')!.FPMask, 0);

    // Cancel: 0, nothing stored, the terminal is free again.
    d.sim.model.enroll.outcome = 'success';
    assert.equal(await d.call('regfp', { UserID: '2', Finger: 4 }), { retvalue: 0 });
    assert.equal(await status({ Cancel: 1 }), { retvalue: 0 });
    assert.equal(await status(), { retvalue: 0 });
    clock += 5000;
    assert.equal(await status(), { retvalue: 0 });
    assert.is(d.user('2')!.FPMask, 0);
    assert.equal(enrolment(d.sim.store), { run: null, result: null });

    // Enrolling an enrolled finger replaces it; Delete removes a template.
    assert.equal(await d.call('regfp', { UserID: '2', Finger: 4 }), { retvalue: 0 });
    clock += 3000;
    assert.equal(await status(), { retvalue: 0 });
    assert.is(d.user('2')!.FPMask, 1 << 4);
    assert.equal(await status({ Type: 1, Finger: 4, Delete: 1 }), { retvalue: 0 });
    assert.is(d.user('2')!.FPMask, 0);
    assert.equal(await status({ Delete: 1 }), { retvalue: 0 });
    assert.is(d.user('2')!.Face, 0);
    assert.equal(await status({ UserID: '999999', Delete: 1 }), err(40401, 'UserID'));

    // The user deleted while the terminal enrols: the outcome says so.
    assert.equal(await d.call('regfp', { UserID: '3', Finger: 2 }), { retvalue: 0 });
    assert.equal(await d.call('deleteuser', { UserID: '3' }), { retvalue: 0 });
    clock += 3000;
    assert.equal(await status(), err(40401, 'UserID'));
  } finally {
    await d.close();
  }
});

enrol('test_enroll, the person at the reader through the API: a good sample stores the template at once, a poor one fails it; nothing running, another user\'s or one that has ended: 10001', async () => {
  let clock = 7_000_000;
  // No one comes to this terminal by itself: an enrolment would time out after 30 s.
  const d = await device({ enroll: { ms: 3000, outcome: 'timeout', timeoutMs: 30000 } }, { now: () => clock });
  const status = (UserID: string, Type: number) => d.call('getOnlineEnrollStatus', { UserID, Type });
  const present = (UserID: string, Good: number) => d.call('test_enroll', { UserID, Good });
  try {
    await d.sim.store.update((s) => {
      for (const u of s.users.filter((x) => ['2', '3'].includes(x.UserID))) [u.Face, u.FPMask] = [0, 0];
    });
    assert.equal(await present('2', 1), err(10001), 'nothing runs');
    assert.equal(await d.call('regfp', { UserID: '2', Finger: 6 }), { retvalue: 0 });
    assert.equal(await status('2', 1), { retvalue: 'wait' });
    assert.equal(await present('3', 1), err(10001), "another user's enrolment is not this one");
    assert.equal(await status('2', 1), { retvalue: 'wait' });
    assert.equal(await present('2', 1), { retvalue: 0 });
    assert.is(d.user('2')!.FPMask, 1 << 6, 'stored when the sample came, before any poll');
    assert.equal(await status('2', 1), { retvalue: 0 });
    assert.equal(await present('2', 1), err(10001), 'it has ended');

    // A face, and a poor sample: 40501 once, nothing stored.
    assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '3', Type: 0, Start: 1 }), { retvalue: 0 });
    assert.equal(await present('3', 0), { retvalue: 0 });
    assert.equal(await status('3', 0), { retvalue: 40501, msg: 'msg.enrollFailed' });
    assert.is(d.user('3')!.Face, 0);

    // Too late: the terminal gave up first (40502), and the sample finds nothing running.
    assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '3', Type: 0, Start: 1 }), { retvalue: 0 });
    clock += 30000;
    assert.equal(await present('3', 1), err(10001));
    assert.equal(await status('3', 0), { retvalue: 40502, msg: 'msg.enrollTimeout' });
    assert.is(d.user('3')!.Face, 0);
    assert.equal(await present('12x', 1), err(10005, 'UserID'));
  } finally {
    await d.close();
  }
});

enrol('capacities and the profile: MaxFP / MaxFACE -> 10004, no FP / FACE -> 10005', async () => {
  const d = await device({ seedUsers: 3, MaxFP: 2, MaxFACE: 1 });
  try {
    await d.sim.store.update((s) => {
      for (const u of s.users) [u.Face, u.FPMask] = [0, 0];
      s.users[0].FPMask = 3;
      s.users[0].Face = 1;
    });
    assert.equal(await d.call('regfp', { UserID: '2', Finger: 0 }), limit('Finger'));
    assert.equal(await d.call('regfp', { UserID: '1', Finger: 1 }), { retvalue: 0 }, 're-enrolling an enrolled finger takes no new place');
    assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '1', Type: 0, Cancel: 1 }), { retvalue: 0 });
    assert.equal(await d.call('getOnlineEnrollStatus', { UserID: '2', Type: 0, Start: 1 }), limit('Type'));
  } finally {
    await d.close();
  }
  const lite = await device({}, { profile: 'lite' });
  try {
    assert.equal(await lite.call('regfp', { UserID: '1', Finger: 0 }), err(10005, 'Finger'));
    assert.equal(await lite.call('getOnlineEnrollStatus', { UserID: '1', Type: 0, Start: 1 }), { retvalue: 0 });
  } finally {
    await lite.close();
  }
  const iris = await device({}, { profile: 'iris' });
  try {
    assert.equal(await iris.call('getOnlineEnrollStatus', { UserID: '1', Type: 0, Start: 1 }), err(10005, 'Type'));
  } finally {
    await iris.close();
  }
});
enrol.run();

// ---------------------------------------------------------------------------
const photos = suite('photos');
let p: Device;
photos.before(async () => {
  p = await device();
});
photos.after(() => p.close());

photos('a PNG and a JPEG are stored and answered as the image with their sniffed type', async () => {
  for (const [id, data, type, ext] of [
    ['20', png(), 'image/png', 'png'],
    ['21', jpeg(), 'image/jpeg', 'jpg'],
  ] as const) {
    // The declared type and the name say otherwise: the bytes decide.
    assert.equal(await p.upload('UploadUserPhoto', { UserID: id, Photo: { data, name: 'photo.gif', type: 'text/plain' } }), { retvalue: 0 });
    assert.is((await p.call('GetUserInfo', { UserID: id })).Photo, 1);
    const res = await p.raw('GetUserPhoto', { UserID: id });
    assert.is(res.status, 200);
    assert.is(res.headers.get('content-type'), type);
    assert.is(res.headers.get('content-disposition'), `attachment; filename="user-${id}.${ext}"`);
    assert.is(res.headers.get('cache-control'), 'no-store');
    assert.is(res.headers.get('x-content-type-options'), 'nosniff');
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(data));
  }
  // A new photo replaces the old one.
  assert.equal(await p.upload('UploadUserPhoto', { UserID: '20', Photo: { data: jpeg(), name: 'b.jpg' } }), { retvalue: 0 });
  assert.is((await p.raw('GetUserPhoto', { UserID: '20' })).headers.get('content-type'), 'image/jpeg');
});

photos('refused by the bytes (10102) and by the size (10101); nothing stored', async () => {
  const text = Buffer.from('just some text, not a picture');
  assert.equal(await p.upload('UploadUserPhoto', { UserID: '22', Photo: { data: text, name: 'photo.jpg', type: 'image/jpeg' } }), err(10102, 'Photo'));
  assert.equal(await p.upload('UploadUserPhoto', { UserID: '22', Photo: { data: png().subarray(0, 7), name: 'short.png', type: 'image/png' } }), err(10102, 'Photo'));
  const large = Buffer.concat([jpeg(), Buffer.alloc(PHOTO_MAX_BYTES)]);
  assert.equal(await p.upload('UploadUserPhoto', { UserID: '22', Photo: { data: large, name: 'big.jpg', type: 'image/jpeg' } }), err(10101, 'Photo'));
  const exact = Buffer.concat([jpeg(), Buffer.alloc(PHOTO_MAX_BYTES - jpeg().length)]);
  assert.equal(await p.upload('UploadUserPhoto', { UserID: '23', Photo: { data: exact, name: 'max.jpg' } }), { retvalue: 0 }, 'exactly the limit is fine');
  // Far past any limit: read to the end and answered, not reset.
  const huge = Buffer.concat([jpeg(), Buffer.alloc(3 << 20)]);
  assert.equal(await p.upload('UploadUserPhoto', { UserID: '22', Photo: { data: huge, name: 'huge.jpg', type: 'image/jpeg' } }), err(10101, 'Photo'));
  assert.is(p.user('22')!.Photo, 0);
  assert.not.ok(existsSync(join(p.dir, 'store.json.photos', '22')));
  // The connection still serves.
  assert.is((await p.call('GetUserInfo', { UserID: '22' })).retvalue, 0);
});
photos.run();
