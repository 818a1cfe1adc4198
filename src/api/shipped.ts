// The calls the console makes, and how each travels: the part of the /goform/
// contract the request layer ships (the forms' field rules are in rules.ts).
// Written by `npm run calls` (build/calls.ts) from src/ and contract/index.ts:
// do not edit. The build and tests/build/calls.test.ts fail when it is not what
// that command writes.
import type { Route } from '../../contract/index.ts';

/** Every call the console makes: requestGoform() takes no other name. */
export type ShippedCall =
  | 'Activate'
  | 'AddGroupTime'
  | 'AnvizWiegandMatch'
  | 'DelSomeGroup'
  | 'DeleteSomeBluetooth'
  | 'DeleteSomeWiegand'
  | 'DownloadOperationLog'
  | 'DownloadRecordForm'
  | 'DownloadReportForm'
  | 'EditPwd'
  | 'EventStream'
  | 'ExecuteCommand'
  | 'ExportUserAll'
  | 'GetAccessControl'
  | 'GetAnvizWiegandAuthorize'
  | 'GetApplyParam'
  | 'GetBleConnect'
  | 'GetBluetoothAuthorize'
  | 'GetBluetoothParam'
  | 'GetCardInfo'
  | 'GetCertificate'
  | 'GetChooseWirless'
  | 'GetCloudParam'
  | 'GetCommMode'
  | 'GetDSTParam'
  | 'GetDateTimeParam'
  | 'GetDebugParam'
  | 'GetDeviceFunList'
  | 'GetDoorAction'
  | 'GetEthernetParam'
  | 'GetExcelAddUser'
  | 'GetFPCompareParam'
  | 'GetGroupInfo'
  | 'GetIdentifyParam'
  | 'GetInfoParam'
  | 'GetInternetParam'
  | 'GetKaoqinParam'
  | 'GetMachineParam'
  | 'GetMqttCloudParam'
  | 'GetPrintParam'
  | 'GetReportFormInfo'
  | 'GetRestParam'
  | 'GetSNKeyParam'
  | 'GetSearchBleDev'
  | 'GetSessionLogout'
  | 'GetShiftsInfo'
  | 'GetStatusChangeInfo'
  | 'GetTimeIntervalInfo'
  | 'GetTimeParam'
  | 'GetUniversalGroup'
  | 'GetUserInfo'
  | 'GetUserPhoto'
  | 'GetWirless'
  | 'GetWorkModeSwitch'
  | 'InitAdminCard'
  | 'InitMachine'
  | 'RestartMachine'
  | 'SetAccessControl'
  | 'SetAllWirless'
  | 'SetAnvizWiegandAuthorize'
  | 'SetApplyParam'
  | 'SetBleDevGroup'
  | 'SetBluetoothAuthorize'
  | 'SetBluetoothParam'
  | 'SetCardInfo'
  | 'SetCertificate'
  | 'SetCloudParam'
  | 'SetCommMode'
  | 'SetDSTParam'
  | 'SetDateTimeParam'
  | 'SetDebugParam'
  | 'SetDoorState'
  | 'SetEthernetParam'
  | 'SetEventList'
  | 'SetFPCompareParam'
  | 'SetGroupInfo'
  | 'SetGroupTime'
  | 'SetIdentifyParam'
  | 'SetInfoParam'
  | 'SetInternetParam'
  | 'SetKaoqinParam'
  | 'SetLanguageSettingItem'
  | 'SetMachineParam'
  | 'SetMqttCloudParam'
  | 'SetPrintParam'
  | 'SetRestParam'
  | 'SetSNKeyParam'
  | 'SetSessionList'
  | 'SetShiftsInfo'
  | 'SetStatusChangeInfo'
  | 'SetTimeIntervalInfo'
  | 'SetTimeParam'
  | 'SetUniversalGroup'
  | 'SetWebUpgradeMode'
  | 'SetWirless'
  | 'SetWorkModeSwitch'
  | 'UpdateMachine'
  | 'UploadUserPhoto'
  | 'adduser'
  | 'chklogin'
  | 'deleteuser'
  | 'deletsomeuser'
  | 'edituser'
  | 'getLanList'
  | 'getOnlineEnrollStatus'
  | 'logout'
  | 'noteOperation'
  | 'regfp'
  | 'searchOperationLog'
  | 'searchThermometryRecord'
  | 'searchrecord'
  | 'test_takephoto'
  | 'userlist';

/** Method and encoding of the calls that differ from SPEC §7's naming rule (routeOf). */
const ROUTES: Partial<Record<ShippedCall, `${Route['method']} ${Route['encoding']}`>> = {
  AddGroupTime: 'POST form',
  AnvizWiegandMatch: 'GET query',
  DelSomeGroup: 'POST form',
  DownloadOperationLog: 'GET query',
  DownloadRecordForm: 'GET query',
  DownloadReportForm: 'GET query',
  EventStream: 'GET query',
  GetCertificate: 'POST multipart',
  GetDeviceFunList: 'GET query',
  GetExcelAddUser: 'POST multipart',
  GetReportFormInfo: 'GET query',
  GetSearchBleDev: 'GET query',
  GetUniversalGroup: 'POST form',
  GetUserPhoto: 'GET query',
  InitMachine: 'GET query',
  RestartMachine: 'GET query',
  SetAnvizWiegandAuthorize: 'POST query',
  SetBluetoothAuthorize: 'POST json',
  SetLanguageSettingItem: 'POST json',
  SetWebUpgradeMode: 'POST json',
  UpdateMachine: 'POST multipart',
  UploadUserPhoto: 'POST multipart',
  logout: 'GET query',
  searchOperationLog: 'GET query',
  searchThermometryRecord: 'GET query',
  searchrecord: 'GET query',
  userlist: 'GET query',
};

/** How a call travels: a Set* call is a GET with a query, any other a POST with JSON, but for ROUTES. */
export function routeOf(name: ShippedCall): Route {
  const [method, encoding] = (ROUTES[name] || (name.startsWith('Set') ? 'GET query' : 'POST json')).split(' ');
  return { method, path: name, encoding } as Route;
}
