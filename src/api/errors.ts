// SPEC §8 error catalogue: result codes to message ids. The English wording
// lives in locales/en/messages.po like every other string; the `/*i18n*/`
// marks let `lingui extract` keep these ids in every catalogue.
import { i18n } from '@lingui/core';

export const CODE_MESSAGES: Readonly<Record<number, string>> = {
  10001: /*i18n*/ 'err.10001',
  10002: /*i18n*/ 'err.10002',
  10003: /*i18n*/ 'err.10003',
  10005: /*i18n*/ 'err.10005',
  10101: /*i18n*/ 'err.10101',
  10102: /*i18n*/ 'err.10102',
  11001: /*i18n*/ 'err.10002',
  40101: /*i18n*/ 'err.40101',
  40102: /*i18n*/ 'err.40102',
  40103: /*i18n*/ 'err.40103',
  40104: /*i18n*/ 'err.40104',
  40201: /*i18n*/ 'err.40201',
  40202: /*i18n*/ 'err.40202',
  40203: /*i18n*/ 'err.40203',
  40301: /*i18n*/ 'err.40301',
  40302: /*i18n*/ 'err.40302',
  40401: /*i18n*/ 'err.40401',
  40402: /*i18n*/ 'err.40402',
  40403: /*i18n*/ 'err.40403',
  40404: /*i18n*/ 'err.40404',
  40405: /*i18n*/ 'err.40405',
};

/** SPEC §8 "Other messages", kept in the catalogue for the screens that show them. */
export const MESSAGES = {
  passwordErrorOrTimeout: /*i18n*/ 'msg.passwordErrorOrTimeout',
  addUpToLimit: /*i18n*/ 'msg.addUpToLimit',
  useridOrUsernameError: /*i18n*/ 'msg.useridOrUsernameError',
  networkConnectionFailed: /*i18n*/ 'msg.networkConnectionFailed',
  networkError: /*i18n*/ 'msg.networkError',
  networkChangeWarning: /*i18n*/ 'msg.networkChangeWarning',
  languageSettingFailed: /*i18n*/ 'msg.languageSettingFailed',
  wifiFallbackAP: /*i18n*/ 'msg.wifiFallbackAP',
  wifiScanFailed: /*i18n*/ 'msg.wifiScanFailed',
  success: /*i18n*/ 'msg.success',
  failed: /*i18n*/ 'msg.failed',
  deviceRestart: /*i18n*/ 'msg.deviceRestart',
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
  return i18n._(MESSAGES.failed);
}
