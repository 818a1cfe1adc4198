// The screens inside the signed-in layout, by route path. They ship as one
// file with the layout (loaded once, after sign-in; the login page prefetches
// it while the password is typed): on a slow link one request beats twenty,
// and one gzip stream compresses better than many small ones. A route with
// no entry here shows the "not built yet" panel (Pending).
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
import AdvAccess from './access/AdvAccess.tsx';
import AdvTimezone from './access/AdvTimezone.tsx';
import AdvShifts from './access/AdvShifts.tsx';
import AdvCard from './access/AdvCard.tsx';

export const SCREENS: Readonly<Record<string, ComponentType>> = {
  '/network/internet': Internet,
  '/network/ethernet': Ethernet,
  '/network/wirless': Wireless,
  '/network/wirless/chooseWIFI': ChooseWifi,
  '/network/wirless/addWIFI': AddWifi,
  '/network/commMode': CommMode,
  '/network/securityOne': Security,
  '/network/cloud': Cloud,
  '/network/bluetooth': Bluetooth,
  '/network/mqtt': Mqtt,
  '/basicSetting/systemInfo': SystemInfo,
  '/basicSetting/device': Device,
  '/basicSetting/display': Display,
  '/basicSetting/identifyMode': IdentifyMode,
  '/basicSetting/fingerPrint': FingerPrint,
  '/basicSetting/attendance': Attendance,
  '/basicSetting/timeSetting': TimeSetting,
  '/basicSetting/dst': Dst,
  '/basicSetting/statusChange': StatusChange,
  '/basicSetting/print': Print,
  '/basicSetting/applyStatus': ApplyStatus,
  '/basicSetting/wiganPairing': WiganPairing,
  '/basicSetting/workMode': WorkMode,
  '/basicSetting/authorizationMode': AuthorizationMode,
  '/AccSetting/zoneSetting': ZoneSetting,
  '/AccSetting/workGroup': WorkGroup,
  '/AccSetting/alwaysOpen': AlwaysOpen,
  '/AccSetting/alwaysClose': AlwaysClose,
  '/advSetting/access': AdvAccess,
  '/advSetting/timezone': AdvTimezone,
  // The time groups, as /AccSetting/zoneSetting.
  '/advSetting/group': ZoneSetting,
  '/advSetting/shifts': AdvShifts,
  '/advSetting/card': AdvCard,
};
