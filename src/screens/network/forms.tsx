// The network screens that are settings forms (SPEC §2 Network group, §3
// Network), and what all network screens share: the SPEC §4 warning around
// saves that may cut this page off the device, and the Wi-Fi security options.
import { Link } from 'wouter';
import { i18n } from '@lingui/core';
import { SettingsForm, type FormDef } from '../../form/SettingsForm.tsx';
import { opts } from '../../form/validation.ts';
import { MSG_NETWORK_CHANGE_WARNING } from '../../api/errors.ts';
import { confirmAction } from '../../ui/confirm.tsx';
import { clearSession } from '../../state/session.ts';
import { JOIN_FAILED } from '../../../contract/codes.ts';
import { Certificate } from './Certificate.tsx';

export const CONFIRM_SAVE = /*i18n*/ 'net.confirmSave';

/** After a change that may move the device: offer the login page (signing out sends the guard there). */
export async function offerLogin(): Promise<boolean> {
  const go = await confirmAction(i18n._(MSG_NETWORK_CHANGE_WARNING));
  if (go) clearSession();
  return go;
}

/** A form whose save may break the connection: warn first, offer the login page after. */
export const linkForm = (def: FormDef): FormDef => ({
  ...def,
  confirm: CONFIRM_SAVE,
  afterSave: async () => void (await offerLogin()),
});

export const SECURITY = opts(/*i18n*/ 'net.secOpen', /*i18n*/ 'net.secPersonal', /*i18n*/ 'net.secEnterprise');

// Internet (SPEC §3 Network): WAN mode, automatic DNS, DNS server.

const internetForm: FormDef = linkForm({
  read: 'SetInternetParam',
  write: 'GetInternetParam',
  fields: [
    { name: 'WanMode', kind: 'select', label: /*i18n*/ 'net.wanMode', options: opts(/*i18n*/ 'route.ethernet', /*i18n*/ 'route.wirless') },
    { name: 'AutoMode', kind: 'switch', label: /*i18n*/ 'net.autoDns' },
    { name: 'Dns', kind: 'ip', label: /*i18n*/ 'net.dns', dependsOn: { AutoMode: [0] } },
  ],
});

export const Internet = () => <SettingsForm def={internetForm} />;

// Ethernet (SPEC §3 Network): static or DHCP; address, mask and gateway only for static.

const STATIC = { IpMode: [0] };

const ethernetForm: FormDef = linkForm({
  read: 'SetEthernetParam',
  write: 'GetEthernetParam',
  fields: [
    { name: 'IpMode', kind: 'radio', label: /*i18n*/ 'net.ipMode', options: opts(/*i18n*/ 'net.static', /*i18n*/ 'net.dhcp') },
    { name: 'Ip', kind: 'ip', label: /*i18n*/ 'net.ip', dependsOn: STATIC },
    { name: 'Mask', kind: 'mask', label: /*i18n*/ 'net.mask', dependsOn: STATIC },
    { name: 'Gateway', kind: 'ip', label: /*i18n*/ 'net.gateway', dependsOn: STATIC },
  ],
});

export const Ethernet = () => <SettingsForm def={ethernetForm} />;

// Wi-Fi (SPEC §3 Network): station (join a network, with Personal or
// Enterprise security) or access point (system or custom name, password).
// Saving station mode joins the network; if that fails the device reports
// "Connection failed, switch back to AP mode" and is back in AP mode.

const STA = { WifiMode: [0] };
const SECURED = { WifiMode: [0], Security: [1, 2] };
const ENTERPRISE = { WifiMode: [0], Security: [2] };
const AP = { WifiMode: [1] };

const wirelessForm: FormDef = linkForm({
  read: 'SetWirless',
  write: 'GetWirless',
  // The join failed and the device is back in AP mode: that is the new baseline (Undo shows it); what was typed stays.
  refreshOn: [JOIN_FAILED],
  fields: [
    { name: 'WifiMode', kind: 'select', label: /*i18n*/ 'net.wifiMode', options: opts(/*i18n*/ 'net.station', /*i18n*/ 'net.ap') },
    { name: 'Ssid', kind: 'text', label: /*i18n*/ 'net.ssid', dependsOn: STA, required: true },
    { name: 'Security', kind: 'select', label: /*i18n*/ 'route.securityOne', options: SECURITY, dependsOn: STA },
    { name: 'Password', kind: 'password', label: /*i18n*/ 'login.password', dependsOn: SECURED, required: true },
    { name: 'Encryption', kind: 'select', label: /*i18n*/ 'net.encryption', options: opts(/*i18n*/ 'net.auto', /*i18n*/ 'net.aes', /*i18n*/ 'net.tkip'), dependsOn: SECURED },
    { name: 'Identity', kind: 'text', label: /*i18n*/ 'net.identity', dependsOn: ENTERPRISE, required: true },
    { name: 'Ca', kind: 'select', label: /*i18n*/ 'net.ca', options: opts(/*i18n*/ 'net.caNone', /*i18n*/ 'net.caSystem'), dependsOn: ENTERPRISE },
    { name: 'Eap', kind: 'select', label: /*i18n*/ 'net.eap', options: opts(/*i18n*/ 'net.peap', /*i18n*/ 'net.ttls', /*i18n*/ 'net.pwd'), dependsOn: ENTERPRISE },
    {
      name: 'Inner',
      kind: 'select',
      label: /*i18n*/ 'net.inner',
      options: opts(/*i18n*/ 'net.mschapv2', /*i18n*/ 'net.gtc', /*i18n*/ 'net.pap', /*i18n*/ 'net.mschap'),
      dependsOn: { ...ENTERPRISE, Eap: [0, 1] },
    },
    { name: 'ApNameMode', kind: 'radio', label: /*i18n*/ 'net.apNameMode', options: opts(/*i18n*/ 'net.apNameDefault', /*i18n*/ 'net.apNameCustom'), dependsOn: AP },
    { name: 'ApName', kind: 'text', label: /*i18n*/ 'net.apName', dependsOn: { WifiMode: [1], ApNameMode: [1] }, required: true },
    { name: 'ApPassword', kind: 'password', label: /*i18n*/ 'net.apPassword', dependsOn: AP },
  ],
});

export const Wireless = () => (
  <SettingsForm def={wirelessForm}>
    <p className="actions">
      <Link href="/network/wirless/chooseWIFI" className="button">
        {i18n._('route.chooseWIFI')}
      </Link>
      <Link href="/network/wirless/addWIFI" className="button">
        {i18n._('route.addWIFI')}
      </Link>
    </p>
  </SettingsForm>
);

// Communication mode (SPEC §3 Network): server or client, port, communication
// password, and for a client the server by IP address or URL.

const commModeForm: FormDef = {
  read: 'SetCommMode',
  write: 'GetCommMode',
  fields: [
    { name: 'Mode', kind: 'select', label: /*i18n*/ 'net.commMode', options: opts(/*i18n*/ 'net.server', /*i18n*/ 'net.client') },
    { name: 'Port', kind: 'port', label: /*i18n*/ 'net.port' },
    { name: 'PwdSwitch', kind: 'switch', label: /*i18n*/ 'net.commPwd' },
    { name: 'Password', kind: 'password', label: /*i18n*/ 'login.password', dependsOn: { PwdSwitch: [1] }, required: true },
    { name: 'ServerType', kind: 'radio', label: /*i18n*/ 'net.serverType', options: opts(/*i18n*/ 'net.ip', /*i18n*/ 'net.url'), dependsOn: { Mode: [1] } },
    { name: 'ServerIp', kind: 'ip', label: /*i18n*/ 'net.serverIp', dependsOn: { Mode: [1], ServerType: [0] } },
    { name: 'ServerUrl', kind: 'text', label: /*i18n*/ 'net.serverUrl', dependsOn: { Mode: [1], ServerType: [1] }, required: true },
  ],
};

export const CommMode = () => <SettingsForm def={commModeForm} />;

// Security protocol (SPEC §2 /network/securityOne): HTTP or HTTPS and the port
// of the web console and REST API, and the REST API switch. Changing the
// protocol or port moves this page, so it is saved like a network change.
// Also who may reach the console: the other names it answers to (any other
// name gets 421: DNS rebinding) and how long an unused session lasts.

const securityForm: FormDef = linkForm({
  read: 'SetRestParam',
  write: 'GetRestParam',
  fields: [
    { name: 'Protocol', kind: 'select', label: /*i18n*/ 'net.protocol', options: opts(/*i18n*/ 'net.http', /*i18n*/ 'net.https') },
    { name: 'Port', kind: 'port', label: /*i18n*/ 'net.port' },
    { name: 'RestApi', kind: 'switch', label: /*i18n*/ 'net.restApi' },
    { name: 'HostNames', kind: 'text', label: /*i18n*/ 'net.hostNames' },
    { name: 'IdleMinutes', kind: 'number', label: /*i18n*/ 'net.idle', unit: /*i18n*/ 'unit.minutes' },
  ],
});

// Below it, the certificate HTTPS serves (Certificate.tsx).
export const Security = () => (
  <>
    <SettingsForm def={securityForm} />
    <Certificate />
  </>
);

// Cloud (SPEC §3 Network): cloud code, password, server.

const cloudForm: FormDef = {
  read: 'SetCloudParam',
  write: 'GetCloudParam',
  fields: [
    { name: 'CloudCode', kind: 'text', label: /*i18n*/ 'net.cloudCode' },
    { name: 'CloudPassword', kind: 'password', label: /*i18n*/ 'login.password' },
    { name: 'CloudServer', kind: 'text', label: /*i18n*/ 'net.server' },
  ],
};

export const Cloud = () => <SettingsForm def={cloudForm} />;

// MQTT (SPEC §3 Network): switch, company id, password.

const ON = { Switch: [1] };

const mqttForm: FormDef = {
  read: 'SetMqttCloudParam',
  write: 'GetMqttCloudParam',
  fields: [
    { name: 'Switch', kind: 'switch', label: /*i18n*/ 'route.mqtt' },
    { name: 'Users', kind: 'text', label: /*i18n*/ 'net.company', dependsOn: ON, required: true },
    { name: 'Password', kind: 'password', label: /*i18n*/ 'login.password', dependsOn: ON, required: true },
  ],
};

export const Mqtt = () => <SettingsForm def={mqttForm} />;
