// Network pairs and calls (SPEC §2 Network group, §3 Network, §7).
import { pair, type Field, type Fields } from '../fields.ts';
import { IPV4 } from '../ipv4.ts';

const ipv4 = (doc: string) => ({ kind: 'string', pattern: IPV4.source, doc }) as const satisfies Field;
// A subnet mask: ones then zeros (0.0.0.0 is not a mask).
const M = '(255|254|252|248|240|224|192|128|0)';
const MASK = `^(255\\.255\\.255\\.${M}|255\\.255\\.${M}\\.0|255\\.${M}\\.0\\.0|(254|252|248|240|224|192|128)\\.0\\.0\\.0)$`;
const HOST = '^(https?://)?[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?(/[^\\s]*)?$';
/** How many names the administrator may add (RestParam.HostNames), and how long each may be. */
export const HOST_NAMES_MAX = 8;
export const HOST_NAME_MAX_LENGTH = 253;
/** One added host name: DNS labels of 1 to 63 letters, digits and hyphens (not at either end), dot-separated; no lookahead, so any regex engine (and fast-check) takes it. */
const LABEL = '[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const NAME = `${LABEL}(\\.${LABEL})*`;
/** One name alone, for a configuration writer (build/servers.ts). */
export const HOST_NAME_PATTERN = `^${NAME}$`;
const MAC = '^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$';
/** A Bluetooth device as searches and the paired list answer it. */
const bleDevice = {
  Name: { kind: 'string', doc: 'Device name (device text: shown as text).' },
  Address: { kind: 'string', doc: 'Bluetooth address (six hex pairs).' },
} as const satisfies Fields;
const port = (doc: string) => ({ kind: 'int', min: 1, max: 65535, doc }) as const satisfies Field;
const security = {
  kind: 'int',
  values: [0, 1, 2],
  doc: 'Wi-Fi security protocol: 0 open (no password), 1 WPA/WPA2 Personal (password of 8 to 63 characters), 2 WPA/WPA2 Enterprise (802.1X: identity and password).',
} as const satisfies Field;
export const NETWORK_PAIRS = {
  ...pair('InternetParam', 'Network', 'internet settings', {
    WanMode: { kind: 'int', values: [0, 1], doc: 'Interface that carries internet traffic: 0 Ethernet, 1 Wi-Fi.' },
    AutoMode: { kind: 'flag', doc: '1: the DNS server is obtained automatically (DHCP); 0: the device uses Dns.' },
    Dns: ipv4('DNS server (IPv4). The console shows it only when AutoMode is 0; with AutoMode 1 the device reports the server it obtained.'),
  }),
  ...pair('EthernetParam', 'Network', 'Ethernet settings', {
    IpMode: { kind: 'int', values: [0, 1], doc: 'IP setup: 0 static (Ip, Mask, Gateway below), 1 DHCP.' },
    Ip: ipv4('IPv4 address. Shown only for static setup; with DHCP the device reports its leased address.'),
    Mask: { kind: 'string', pattern: MASK, doc: 'Subnet mask: a dotted quad of ones then zeros, e.g. 255.255.255.0.' },
    Gateway: ipv4('Default gateway (IPv4).'),
  }),
  ...pair('Wirless', 'Network', 'Wi-Fi settings', {
    WifiMode: {
      kind: 'int',
      values: [0, 1],
      doc: '0 station (the device joins the network Ssid), 1 access point (AP: the device offers its own network). Saving station mode joins the network (about 1 s); when that fails the device falls back to AP mode and answers 30102 with msg "msg.wifiFallbackAP" ("Connection failed, switch back to AP mode").',
    },
    Ssid: { kind: 'string', optional: true, maxLength: 32, doc: 'Station mode: name of the network to join.' },
    Password: {
      kind: 'string',
      optional: true,
      maxLength: 64,
      doc: 'Station mode: network password (Personal: 8 to 63 characters, else 10005; Enterprise: the identity\'s password). Absent: unchanged.',
    },
    Security: security,
    Encryption: { kind: 'int', values: [0, 1, 2], doc: 'Station mode, Personal or Enterprise: encryption mode, 0 automatic, 1 AES (CCMP), 2 TKIP.' },
    Identity: { kind: 'string', optional: true, maxLength: 64, doc: 'Station mode, Enterprise: identity (user name).' },
    Ca: { kind: 'int', values: [0, 1], doc: 'Station mode, Enterprise: CA certificate, 0 do not validate the server, 1 use the system certificates.' },
    Eap: { kind: 'int', values: [0, 1, 2], doc: 'Station mode, Enterprise: EAP method, 0 PEAP, 1 TTLS, 2 PWD.' },
    Inner: { kind: 'int', values: [0, 1, 2, 3], doc: 'Station mode, Enterprise with PEAP or TTLS: inner (phase 2) authentication, 0 MSCHAPV2, 1 GTC, 2 PAP, 3 MSCHAP.' },
    ApNameMode: { kind: 'int', values: [0, 1], doc: 'AP mode: network name, 0 system default (derived from the serial number), 1 custom (ApName).' },
    ApName: { kind: 'string', optional: true, maxLength: 32, doc: 'AP mode with ApNameMode 1: the network name the device offers.' },
    ApPassword: { kind: 'string', pattern: '^.{8,63}$', doc: 'AP mode: password of the network the device offers, 8 to 63 characters.' },
  }),
  ...pair('CommMode', 'Network', 'communication mode', {
    Mode: { kind: 'int', values: [0, 1], doc: 'Communication with the management software: 0 server (the device listens on Port), 1 client (the device connects to the server at ServerIp or ServerUrl, Port).' },
    Port: port('TCP port, 1 to 65535: the port listened on (server) or connected to (client).'),
    PwdSwitch: { kind: 'flag', doc: '1: the software must give the communication password.' },
    Password: { kind: 'string', optional: true, pattern: '^[0-9]{1,6}$', doc: 'Communication password, 1 to 6 digits (used when PwdSwitch is 1). Absent: unchanged.' },
    ServerType: { kind: 'int', values: [0, 1], doc: 'Client mode: how the server is given, 0 IP address (ServerIp), 1 URL (ServerUrl).' },
    ServerIp: ipv4('Client mode: server IPv4 address.'),
    ServerUrl: { kind: 'string', optional: true, maxLength: 128, pattern: HOST, doc: 'Client mode: server host name or URL (http:// or https://, optional port and path). Absent: unchanged.' },
  }),
  ...pair('RestParam', 'Network', 'security protocol settings', {
    Protocol: {
      kind: 'int',
      values: [0, 1],
      doc: 'Protocol of the device\'s web console and REST API: 0 HTTP and HTTPS both serve; 1 HTTPS only, HTTP answers a redirect to the same page on https and HTTPS sends HSTS (docs/EMBEDDING.md, "Host names and HTTPS"). Changing it (or Port) moves the console: sign in again at the new address.',
    },
    Port: port('Port of the web console and REST API, 1 to 65535 (80 for HTTP and 443 for HTTPS are usual).'),
    RestApi: { kind: 'flag', doc: '1: the REST API is open to other systems (with the administrator\'s credentials).' },
    HostNames: {
      kind: 'string',
      optional: true,
      maxLength: HOST_NAMES_MAX * (HOST_NAME_MAX_LENGTH + 1),
      pattern: `^$|^${NAME}( ${NAME}){0,${HOST_NAMES_MAX - 1}}$`,
      doc: `Names the console may be opened by besides an IP address and localhost (docs/API.md, "Host and Origin"): up to ${HOST_NAMES_MAX} DNS names (labels of 1 to 63 letters, digits and hyphens, separated by dots), separated by single spaces; empty: none. A request for any other name is answered 421. Absent: unchanged.`,
    },
    IdleMinutes: { kind: 'int', optional: true, min: 1, max: 60, doc: 'A session unused this many minutes ends (its next call answers 40104), 1 to 60; 10 at the factory. Absent: unchanged.' },
  }),
  ...pair('CloudParam', 'Network', 'cloud settings', {
    CloudCode: { kind: 'string', maxLength: 32, pattern: '^[A-Za-z0-9]{1,32}$', doc: 'Cloud code: the device\'s code on the cloud service (printed on its label), 1 to 32 letters and digits.' },
    CloudPassword: { kind: 'string', maxLength: 32, pattern: '^.{1,32}$', doc: 'Cloud password, 1 to 32 characters.' },
    CloudServer: { kind: 'string', maxLength: 128, pattern: HOST, doc: 'Cloud server: host name or URL (http:// or https://, optional port and path).' },
  }),
  ...pair('BluetoothParam', 'Network', 'Bluetooth settings', {
    BleOption: { kind: 'flag', doc: 'Bluetooth on (1) or off (0); the other fields apply only when on.' },
    BleServer: { kind: 'flag', doc: '1: server; phones (the vendor app) and Bluetooth readers may connect to the device.' },
    BleClient: { kind: 'flag', doc: '1: client; the device connects to the Bluetooth device at BleAddress (e.g. a lock or reader).' },
    BleAddress: { kind: 'string', optional: true, pattern: MAC, doc: 'Client mode: address of the device to connect to, six hex pairs separated by colons. Absent: unchanged.' },
  }),
  ...pair('MqttCloudParam', 'Network', 'MQTT settings (the read takes no parameters)', {
    Switch: { kind: 'flag', doc: '1: the device reports to the MQTT cloud.' },
    Users: { kind: 'string', optional: true, pattern: '^[A-Za-z0-9_-]{1,32}$', doc: 'Company id (MQTT user), 1 to 32 letters, digits, - or _. Absent: unchanged.' },
    Password: { kind: 'string', optional: true, maxLength: 32, doc: 'MQTT password, up to 32 characters. Absent: unchanged.' },
  }),

  // Wi-Fi scan and join
  SetAllWirless: {
    method: 'GET',
    path: 'SetAllWirless',
    area: 'Network',
    purpose: 'Start a Wi-Fi scan (it takes about 2 s); GetChooseWirless answers the results.',
    encoding: 'query',
    auth: true,
    request: {},
    response: {},
  },
  GetChooseWirless: {
    method: 'POST',
    path: 'GetChooseWirless',
    area: 'Network',
    purpose:
      'Without Ssid: the results of the last scan ("wait" while it runs; a scan is started if none was; 30101 with msg "msg.wifiScanFailed", "Obtaining failed, please refresh.", when it failed). With Ssid: join that network in station mode (about 1 s); when that fails the device falls back to AP mode and answers 30102 with msg "msg.wifiFallbackAP".',
    encoding: 'json',
    auth: true,
    request: {
      Ssid: { kind: 'string', optional: true, maxLength: 32, doc: 'Network to join; absent to read the scan results.' },
      Security: { ...security, optional: true, doc: `${security.doc} Needed for a network the scan did not list (added by hand); otherwise the scanned value is used.` },
      Password: { kind: 'string', optional: true, maxLength: 64, doc: 'Network password (Personal: 8 to 63 characters).' },
      Identity: { kind: 'string', optional: true, maxLength: 64, doc: 'Enterprise: identity (user name).' },
    },
    response: {
      List: {
        kind: 'objects',
        optional: true,
        doc: 'Networks in range, strongest first (only when reading results).',
        fields: {
          Ssid: { kind: 'string', doc: 'Network name (device text: shown as text).' },
          Security: security,
          Signal: { kind: 'int', min: 0, max: 100, doc: 'Signal strength, percent.' },
          Connected: { kind: 'flag', doc: '1: the device is connected to it.' },
        },
      },
    },
  },

  // Bluetooth devices
  GetSearchBleDev: {
    method: 'GET',
    path: 'GetSearchBleDev',
    area: 'Network',
    purpose: 'Search Bluetooth devices nearby: the first call starts a search (about 2 s) and answers "wait", as do further calls while it runs; then one call answers the devices found, and the next starts a new search.',
    encoding: 'query',
    auth: true,
    request: {},
    response: {
      List: {
        kind: 'objects',
        optional: true,
        doc: 'Devices found, strongest first.',
        fields: { ...bleDevice, Rssi: { kind: 'int', doc: 'Signal strength, dBm.' } },
      },
    },
  },
  GetBleConnect: {
    method: 'POST',
    path: 'GetBleConnect',
    area: 'Network',
    purpose: 'Pair with a device the last search found (about 1 s) and add it to the paired list; "msg.failed" with code 30201 when the device is not in range or was not found by a search.',
    encoding: 'json',
    auth: true,
    request: {
      Address: { kind: 'string', pattern: MAC, doc: 'Address of the device, from GetSearchBleDev.' },
    },
    response: {},
  },
  SetBleDevGroup: {
    method: 'GET',
    path: 'SetBleDevGroup',
    area: 'Network',
    purpose: 'Read the list of paired Bluetooth devices.',
    encoding: 'query',
    auth: true,
    request: {},
    response: {
      List: {
        kind: 'objects',
        doc: 'Paired devices, in pairing order.',
        fields: bleDevice,
      },
    },
  },
} as const;
