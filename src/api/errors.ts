// SPEC §8 error catalogue: result codes to message ids. The English wording
// lives in locales/en/messages.po like every other string; the `/*i18n*/`
// marks let `lingui extract` keep these ids in every catalogue.
import { i18n } from '@lingui/core';

/** SPEC §8's table: each code's message is err.<code> (11001 shows 10002's, Token Failed). */
const SPEC_CODES = [10001, 10002, 10003, 10005, 10101, 10102, 11001, 40101, 40102, 40103, 40104, 40201, 40202, 40203, 40301, 40302, 40401, 40402, 40403, 40404, 40405];
// The ids for `lingui extract`; the map below is built from the codes (fewer bytes on the login path than a literal table).
void [/*i18n*/ 'err.10001', /*i18n*/ 'err.10002', /*i18n*/ 'err.10003', /*i18n*/ 'err.10005', /*i18n*/ 'err.10101', /*i18n*/ 'err.10102', /*i18n*/ 'err.40101', /*i18n*/ 'err.40102', /*i18n*/ 'err.40103', /*i18n*/ 'err.40104', /*i18n*/ 'err.40201', /*i18n*/ 'err.40202', /*i18n*/ 'err.40203', /*i18n*/ 'err.40301', /*i18n*/ 'err.40302', /*i18n*/ 'err.40401', /*i18n*/ 'err.40402', /*i18n*/ 'err.40403', /*i18n*/ 'err.40404', /*i18n*/ 'err.40405'];
export const CODE_MESSAGES: Readonly<Record<number, string>> = Object.fromEntries(SPEC_CODES.map((c) => [c, `err.${c == 11001 ? 10002 : c}`]));

/**
 * SPEC §8 "Other messages", kept in the catalogue for the screens that show them.
 * One constant each, so a bundle carries only the ids its code names; MESSAGES
 * lists them all for docs/API.md and the tests.
 */
export const MSG_PASSWORD_ERROR_OR_TIMEOUT = /*i18n*/ 'msg.passwordErrorOrTimeout';
export const MSG_ADD_UP_TO_LIMIT = /*i18n*/ 'msg.addUpToLimit';
export const MSG_USERID_OR_USERNAME_ERROR = /*i18n*/ 'msg.useridOrUsernameError';
export const MSG_NETWORK_CONNECTION_FAILED = /*i18n*/ 'msg.networkConnectionFailed';
export const MSG_NETWORK_ERROR = /*i18n*/ 'msg.networkError';
export const MSG_NETWORK_CHANGE_WARNING = /*i18n*/ 'msg.networkChangeWarning';
export const MSG_LANGUAGE_SETTING_FAILED = /*i18n*/ 'msg.languageSettingFailed';
export const MSG_WIFI_FALLBACK_A_P = /*i18n*/ 'msg.wifiFallbackAP';
export const MSG_WIFI_SCAN_FAILED = /*i18n*/ 'msg.wifiScanFailed';
export const MSG_SUCCESS = /*i18n*/ 'msg.success';
export const MSG_FAILED = /*i18n*/ 'msg.failed';
export const MSG_DEVICE_RESTART = /*i18n*/ 'msg.deviceRestart';
export const MESSAGES = {
  passwordErrorOrTimeout: MSG_PASSWORD_ERROR_OR_TIMEOUT,
  addUpToLimit: MSG_ADD_UP_TO_LIMIT,
  useridOrUsernameError: MSG_USERID_OR_USERNAME_ERROR,
  networkConnectionFailed: MSG_NETWORK_CONNECTION_FAILED,
  networkError: MSG_NETWORK_ERROR,
  networkChangeWarning: MSG_NETWORK_CHANGE_WARNING,
  languageSettingFailed: MSG_LANGUAGE_SETTING_FAILED,
  wifiFallbackAP: MSG_WIFI_FALLBACK_A_P,
  wifiScanFailed: MSG_WIFI_SCAN_FAILED,
  success: MSG_SUCCESS,
  failed: MSG_FAILED,
  deviceRestart: MSG_DEVICE_RESTART,
} as const;

function known(id: string): boolean {
  return Object.prototype.hasOwnProperty.call(i18n.messages, id);
}

/**
 * The text to show for a failed reply (SPEC §8): the catalogue message for a
 * code in the table; otherwise the message keyed by `msg` when the catalogue
 * has it (its placeholders filled from the reply's fields), else `msg` as
 * plain device text; otherwise "Failed".
 */
export function messageFor(code: number | string, msg?: string, reply?: Record<string, unknown>): string {
  const id = typeof code === 'number' ? CODE_MESSAGES[code] : undefined;
  if (id) return i18n._(id);
  // A catalogue message may name reply fields ({minutes} of the login lock); they fill it as text.
  if (msg) return known(msg) ? i18n._(msg, reply) : msg;
  return i18n._(MSG_FAILED);
}
