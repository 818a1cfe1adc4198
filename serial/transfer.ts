// What the file transfers over a serial console share, YMODEM (ymodem-send.ts,
// ymodem-receive.ts) and ZMODEM (zmodem.ts): the protocols by name, a file and
// the progress a transfer reports, CRC-16/XMODEM (YMODEM's blocks, ZMODEM's
// hex and 16-bit binary headers and subpackets), and the names a sender
// announces. No I/O here.

/** The transfer protocols, as a command line or a console profile names them. */
export const PROTOCOLS = ['zmodem', 'ymodem'] as const;
export type Protocol = (typeof PROTOCOLS)[number];
/** Whether a text (an option's, a profile's) names one of them. */
export const isProtocol = (s: string): s is Protocol => (PROTOCOLS as readonly string[]).includes(s);

export interface TransferFile {
  name: string;
  data: Buffer;
}

export interface TransferProgress {
  file: string;
  bytes: number;
  /** The file's size as its sender announced it (YMODEM's block 0; 0 if it announced none). */
  total: number;
}

const CRC_TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let j = 0; j < 8; j++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    t[i] = c;
  }
  return t;
})();

/** CRC-16/XMODEM (poly 0x1021, init 0, no reflection, no final xor) of data[start, end). */
export function crc16Xmodem(data: Uint8Array, start = 0, end = data.length): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xff00) ^ CRC_TABLE[((crc >> 8) ^ data[i]) & 0xff];
  return crc;
}

/** The names a sender announces for `files` (base names); `refuse` makes the error for one it cannot send. */
export function sendableNames(files: { name: string }[], refuse: (msg: string) => Error): string[] {
  return files.map((f) => {
    const n = baseName(f.name);
    if (!n || n.includes('\0')) throw refuse(`unusable file name ${JSON.stringify(f.name)}`);
    return n;
  });
}

/** The base name of a path as a sender might announce it; '' if nothing usable is left. */
export function baseName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  return base === '.' || base === '..' ? '' : base;
}
