// The screens inside the signed-in layout, by their route's title id. They ship as one
// file with the layout, requested when the sign-in form is sent (in parallel
// with the sign-in call; nothing of it loads on the login page itself): on a
// slow link one request beats twenty, and one gzip stream compresses better
// than many small ones. A file per menu group was measured and costs about
// 2 KB more in all (each file repeats what the engine shares). Every route
// of the layout has an entry (tests/console/routes.test.ts).
import type { ComponentType } from 'react';
import { Internet, Ethernet, Wireless, CommMode, Security, Cloud, Mqtt } from './network/forms.tsx';
import ChooseWifi from './network/ChooseWifi.tsx';
import { AddWifi } from './network/Join.tsx';
import Bluetooth from './network/Bluetooth.tsx';
import { Device, Display, IdentifyMode, FingerPrint, TimeSetting, Dst, StatusChange, Print, ApplyStatus, WorkMode } from './basic/forms.tsx';
import { SystemInfo } from './basic/info.tsx';
import { WiganPairing } from './basic/pairing.tsx';
import { AuthorizationMode } from './basic/authorization.tsx';
import Attendance from './basic/Attendance.tsx';
import ZoneSetting from './access/ZoneSetting.tsx';
import WorkGroup from './access/WorkGroup.tsx';
import AlwaysOpen from './access/AlwaysOpen.tsx';
import AlwaysClose from './access/AlwaysClose.tsx';
import Door from './access/Door.tsx';
import AdvAccess from './access/AdvAccess.tsx';
import AdvTimezone from './access/AdvTimezone.tsx';
import AdvShifts from './access/AdvShifts.tsx';
import AdvCard from './access/AdvCard.tsx';
import { UserList, AddUser, UserEdit, Identify, Fingerprint } from './user/index.ts';
import Backup from './maint/Backup.tsx';
import { OpLog, Records, Report, Thermometry } from './maint/records.tsx';
import { FirmwareUpgrade, InitCard, Initialization, Restart } from './maint/device.tsx';
import Sessions from './maint/sessions.tsx';
import { LiveEvents } from './maint/live.tsx';

/** By the title id of their route (routes.ts): one per route, and a short id in what ships, where a path is twenty letters. */
export const SCREENS: Readonly<Record<string, ComponentType>> = {
  [/*i18n*/ 'route.userList']: UserList,
  [/*i18n*/ 'route.addUser']: AddUser,
  [/*i18n*/ 'route.userEdit']: UserEdit,
  [/*i18n*/ 'route.identify']: Identify,
  [/*i18n*/ 'route.fingerprint']: Fingerprint,
  [/*i18n*/ 'route.internet']: Internet,
  [/*i18n*/ 'route.ethernet']: Ethernet,
  [/*i18n*/ 'route.wirless']: Wireless,
  [/*i18n*/ 'route.chooseWIFI']: ChooseWifi,
  [/*i18n*/ 'route.addWIFI']: AddWifi,
  [/*i18n*/ 'route.commMode']: CommMode,
  [/*i18n*/ 'route.securityOne']: Security,
  [/*i18n*/ 'route.cloud']: Cloud,
  [/*i18n*/ 'route.bluetooth']: Bluetooth,
  [/*i18n*/ 'route.mqtt']: Mqtt,
  [/*i18n*/ 'route.systemInfo']: SystemInfo,
  [/*i18n*/ 'route.device']: Device,
  [/*i18n*/ 'route.display']: Display,
  [/*i18n*/ 'route.identifyMode']: IdentifyMode,
  [/*i18n*/ 'route.fingerPrint']: FingerPrint,
  [/*i18n*/ 'route.attendance']: Attendance,
  [/*i18n*/ 'route.timeSetting']: TimeSetting,
  [/*i18n*/ 'route.dst']: Dst,
  [/*i18n*/ 'route.statusChange']: StatusChange,
  [/*i18n*/ 'route.print']: Print,
  [/*i18n*/ 'route.applyStatus']: ApplyStatus,
  [/*i18n*/ 'route.wiganPairing']: WiganPairing,
  [/*i18n*/ 'route.workMode']: WorkMode,
  [/*i18n*/ 'route.authorizationMode']: AuthorizationMode,
  [/*i18n*/ 'route.zoneSetting']: ZoneSetting,
  [/*i18n*/ 'route.workGroup']: WorkGroup,
  [/*i18n*/ 'route.alwaysOpen']: AlwaysOpen,
  [/*i18n*/ 'route.alwaysClose']: AlwaysClose,
  [/*i18n*/ 'route.door']: Door,
  [/*i18n*/ 'route.access']: AdvAccess,
  [/*i18n*/ 'route.timezone']: AdvTimezone,
  // /advSetting/group: the time groups, as /AccSetting/zoneSetting.
  [/*i18n*/ 'route.group']: ZoneSetting,
  [/*i18n*/ 'route.shifts']: AdvShifts,
  [/*i18n*/ 'route.card']: AdvCard,
  [/*i18n*/ 'route.recordList']: Records,
  [/*i18n*/ 'route.thermometry']: Thermometry,
  [/*i18n*/ 'route.report']: Report,
  [/*i18n*/ 'route.liveEvents']: LiveEvents,
  [/*i18n*/ 'route.opLog']: OpLog,
  [/*i18n*/ 'route.initCard']: InitCard,
  [/*i18n*/ 'route.firmwareUpgrade']: FirmwareUpgrade,
  [/*i18n*/ 'route.initialization']: Initialization,
  [/*i18n*/ 'route.restart']: Restart,
  [/*i18n*/ 'route.backup']: Backup,
  [/*i18n*/ 'route.sessions']: Sessions,
};
