// Result codes this contract adds to SPEC §8's table, for situations SPEC
// describes without a code. Each comes with the `msg` key the console shows
// (docs/API.md, "Codes this contract adds"); firmware must answer the same.
// The console imports single constants; the table itself is for docs/API.md.

/** An add with every place taken (16 periods, 16 work groups). */
export const ADD_LIMIT = 10004;
/** A Wi-Fi scan failed (SPEC §3: "Obtaining failed, please refresh."). */
export const SCAN_FAILED = 30101;
/** A Wi-Fi join failed; the device is back in AP mode (SPEC §3). */
export const JOIN_FAILED = 30102;
/** Pairing with a Bluetooth device failed. */
export const PAIR_FAILED = 30201;
/** Face or finger enrolment failed on the terminal (a poor template, the person left). */
export const ENROLL_FAILED = 40501;
/** The terminal gave up enrolling: no one came within the countdown (SPEC §4, 30 s). */
export const ENROLL_TIMEOUT = 40502;
/** Another enrolment is running on the terminal. */
export const ENROLL_BUSY = 40504;

/** Sign-in is closed for a while after wrong passwords (the illegal-login lock); the reply's `wait` says for how many seconds. */
export const LOGIN_LOCKED = 40303;

/** The illegal-login lock's numbers (simulator/login-guard.ts does it; docs/API.md, "Sign-in attempts", says it). */
export const LOGIN_LOCK_RULES = {
  /** Wrong passwords that cost nothing. */
  free: 3,
  /** The first wait after them, doubled at each further wrong password, up to maxWaitS. */
  firstWaitS: 1,
  maxWaitS: 32,
  /** This many wrong passwords in a row lock the pair for lockS. */
  lockAfter: 10,
  lockS: 15 * 60,
  /** A pair with no wrong password for this long starts again from nothing. */
  forgetS: 15 * 60,
  /** The same for an address whatever the user name: more room, the same waits. */
  addressFree: 10,
  addressLockAfter: 30,
  /** Entries remembered (about 64 bytes each on a device); past it the oldest open one is dropped. */
  maxEntries: 256,
} as const;

/** Largest JSON or URL-encoded request body; a larger one is read to its end and answered 10101. */
export const REQUEST_MAX_BYTES = 1 << 20;

/** ExecuteCommand was sent a code that is not on the device's list (/cmd). */
export const UNKNOWN_COMMAND = 10006;
/** A firmware package whose payload does not match its SHA-256. */
export const FW_CHECKSUM = 10103;
/** A firmware package that is not newer than the running firmware (the forced upgrade, /up, installs it). */
export const FW_NOT_NEWER = 10104;

/** The terminal is in its factory state: the factory credential signed in only to choose the administrator password (Activate); every other call answers this. */
export const ACTIVATE_FIRST = 40105;
/** A new administrator password that a brute-force list tries first (docs/API.md, "Activation"). */
export const WEAK_PASSWORD = 40204;
/** A firmware package without a signature block. */
export const FW_UNSIGNED = 10105;
/** A firmware package whose signature does not verify with the key it names, or is not Ed25519. */
export const FW_BAD_SIGNATURE = 10106;
/** A firmware package signed with a key the device does not hold. */
export const FW_UNKNOWN_KEY = 10107;
/** A certificate and a private key that do not belong together. */
export const CERT_KEY_MISMATCH = 10108;
/** A certificate that has expired or is not valid yet. */
export const CERT_EXPIRED = 10109;

/** A door call on a terminal without a relay (attendance only: no `door` in its function list). */
export const NO_RELAY = 50101;
/** A door action while the relay does not drive the lock (SetAccessControl RelayMode is not 2, door open). */
export const DOOR_NOT_LOCK = 50102;
/** Open now for a time outside its bounds, or a time given with another action. */
export const DOOR_SECONDS = 50103;

export interface AddedCode {
  code: number;
  msg: string;
  calls: readonly string[];
  /** Instead of `calls`, when any call may answer it: which, in words. */
  anyCall?: string;
  meaning: string;
  console: string;
}

export const ADDED_CODES: readonly AddedCode[] = [
  {
    code: LOGIN_LOCKED,
    msg: /*i18n*/ 'msg.loginLocked',
    calls: ['chklogin'],
    meaning: 'Too many wrong passwords from this address for this user name (or from this address at all): sign-in is closed for `wait` seconds, whatever the password. See "Sign-in attempts".',
    console: 'Shows the message with the reply\'s `minutes`, by the sign-in form; what was typed stays.',
  },
  {
    code: ADD_LIMIT,
    msg: 'msg.addUpToLimit',
    calls: ['AddGroupTime', 'GetUniversalGroup', 'adduser', 'edituser', 'regfp', 'getOnlineEnrollStatus', 'GetExcelAddUser'],
    meaning: 'Every place is taken (16 periods of a type, 16 work groups; MaxUser users, MaxFP fingerprints, MaxFACE faces, or the card capacity); nothing was added.',
    console: 'Shows the message; the add dialog stays open with what was typed.',
  },
  {
    code: SCAN_FAILED,
    msg: 'msg.wifiScanFailed',
    calls: ['GetChooseWirless'],
    meaning: 'The Wi-Fi scan failed.',
    console: 'Shows "Obtaining failed, please refresh." in the list, with Refresh.',
  },
  {
    code: JOIN_FAILED,
    msg: 'msg.wifiFallbackAP',
    calls: ['GetWirless', 'GetChooseWirless'],
    meaning: 'Joining the network failed; the device has switched back to AP mode (the values it then has are AP mode).',
    console: 'Shows the message. The Wi-Fi form keeps what was typed and reads the device again, so Undo shows AP mode; the join form returns to the Wi-Fi page.',
  },
  {
    code: PAIR_FAILED,
    msg: 'msg.failed',
    calls: ['GetBleConnect'],
    meaning: 'The Bluetooth device was not in range or was not found by the last search; nothing was paired.',
    console: 'Shows the message; the device list stays as it was.',
  },
  {
    code: ENROLL_FAILED,
    msg: 'msg.enrollFailed',
    calls: ['getOnlineEnrollStatus'],
    meaning: 'The face or finger enrolment failed on the terminal; nothing was stored.',
    console: 'Stops the countdown and says enrolment failed; it can be started again.',
  },
  {
    code: ENROLL_TIMEOUT,
    msg: 'msg.enrollTimeout',
    calls: ['getOnlineEnrollStatus'],
    meaning: 'The terminal gave up enrolling after 30 s with no face or finger presented.',
    console: 'Stops the countdown and says the enrolment timed out. The console also cancels and says so itself when its own countdown reaches 0.',
  },
  {
    code: ENROLL_BUSY,
    msg: 'msg.enrollBusy',
    calls: ['regfp', 'getOnlineEnrollStatus'],
    meaning: 'Another enrolment is running on the terminal; this one was not started.',
    console: 'Shows the message; nothing starts.',
  },
  {
    code: UNKNOWN_COMMAND,
    msg: 'msg.badCommand',
    calls: ['ExecuteCommand'],
    meaning: 'The command code is not on the device\'s list (docs/API.md, "Command codes"); nothing ran.',
    console: 'Says the code is unknown, at the code field; what was typed stays.',
  },
  {
    code: FW_CHECKSUM,
    msg: 'msg.fwChecksum',
    calls: ['UpdateMachine'],
    meaning: 'The package\'s payload does not match the SHA-256 in its header (a damaged or altered file); nothing changed.',
    console: 'Shows the message; the firmware and the settings are as they were.',
  },
  {
    code: FW_NOT_NEWER,
    msg: 'msg.fwNotNewer',
    calls: ['UpdateMachine'],
    meaning: 'The package\'s version is not newer than the running firmware; nothing changed. The forced upgrade (/up, SetWebUpgradeMode) installs it.',
    console: 'Shows the message, which names the forced upgrade.',
  },
  {
    code: ACTIVATE_FIRST,
    msg: 'msg.activateFirst',
    calls: [],
    anyCall: 'every call that needs a session, except Activate and logout',
    meaning: 'The terminal is in its factory state and this session was opened with the factory credential: it may only choose the administrator password (Activate). See "Activation".',
    console: 'Shows the activation step: the new password twice.',
  },
  {
    code: WEAK_PASSWORD,
    msg: 'msg.weakPassword',
    calls: ['Activate', 'EditPwd'],
    meaning: 'The new password is one a brute-force list tries first: the factory password, one digit repeated, a run up or down, or six digits of the serial number. Nothing changed. See "Activation".',
    console: 'Says so at the new password field; what was typed stays.',
  },
  {
    code: FW_UNSIGNED,
    msg: 'msg.fwUnsigned',
    calls: ['UpdateMachine'],
    meaning: 'The package carries no signature; nothing changed. The forced upgrade does not install it either.',
    console: 'Shows the message.',
  },
  {
    code: FW_BAD_SIGNATURE,
    msg: 'msg.fwBadSignature',
    calls: ['UpdateMachine'],
    meaning: 'The signature does not verify with the key the package names (the package was altered after signing), or is not an Ed25519 signature; nothing changed. The forced upgrade does not install it either.',
    console: 'Shows the message.',
  },
  {
    code: FW_UNKNOWN_KEY,
    msg: 'msg.fwUnknownKey',
    calls: ['UpdateMachine'],
    meaning: 'The package is signed with a key this device does not hold (another vendor or brand, or a key withdrawn); nothing changed. The forced upgrade does not install it either. See "Firmware package", key rotation.',
    console: 'Shows the message.',
  },
  {
    code: CERT_KEY_MISMATCH,
    msg: 'msg.certKeyMismatch',
    calls: ['GetCertificate'],
    meaning: 'The private key does not belong to the certificate; nothing changed.',
    console: 'Says so at the key field.',
  },
  {
    code: CERT_EXPIRED,
    msg: 'msg.certExpired',
    calls: ['GetCertificate'],
    meaning: 'The certificate has expired or is not valid yet (by the device\'s clock); nothing changed.',
    console: 'Says so at the certificate field.',
  },
  {
    code: NO_RELAY,
    msg: /*i18n*/ 'msg.doorNoRelay',
    calls: ['SetDoorState', 'GetDoorAction'],
    meaning: 'The terminal has no relay (attendance only); its function list has no `door`. Nothing changed.',
    console: 'Hides the Door screen (no `door` in the function list); opened by its address, it shows the message.',
  },
  {
    code: DOOR_NOT_LOCK,
    msg: /*i18n*/ 'msg.doorNotLock',
    calls: ['GetDoorAction'],
    meaning: 'The relay rings a bell or drives nothing (SetAccessControl RelayMode is not 2, door open); nothing changed.',
    console: 'Says so on the Door screen (SetDoorState\'s Lock is 0), where the actions are off.',
  },
  {
    code: DOOR_SECONDS,
    msg: /*i18n*/ 'msg.doorSeconds',
    calls: ['GetDoorAction'],
    meaning: 'Seconds is outside its bounds, or came with another action than open now (3); nothing changed.',
    console: 'Says so at the seconds field; what was typed stays.',
  },
];
