// Calls that answer a file (an export, a photo) or send one with a progress
// bar (firmware): the same request as every other call (SPEC §7 General).
// A success is the file itself; a failure still answers the JSON envelope
// and is handled as SPEC §8 says. Not on the login path: only signed-in
// screens import this.
import type { Reply, RequestOf } from '../../contract/index.ts';
import type { ShippedCall } from './shipped.ts';
import { handleReply, noAnswer, parseBody, prepare, transport } from './request.ts';

/** The file a call answers; rejects (after saying why) when the device answers an error instead. */
export async function requestFile<N extends ShippedCall>(name: N, params?: RequestOf<N>): Promise<Blob> {
  const got = await transport(name, params, {}, async (res) => (/json/.test(res.headers.get('Content-Type') ?? '') ? parseBody(await res.text()) : res.blob()));
  if (got instanceof Blob) return got;
  handleReply(got);
  // A success without a file: nothing to give.
  return new Blob();
}

/** Hand a file to the browser as a download. */
export function saveFile(blob: Blob, name: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** A call's file saved as a download; a failure has been said already. */
export const download = <N extends ShippedCall>(name: N, params: RequestOf<N>, file: string) =>
  requestFile(name, params).then((b) => saveFile(b, file), () => undefined);

/**
 * Send a call with a file, reporting the bytes sent as they go (fetch cannot).
 * No timeout while the file travels: a large file on a slow link takes what
 * it takes; a broken link ends it. Resolves and rejects as requestGoform.
 */
export function upload<N extends ShippedCall>(name: N, params: RequestOf<N>, progress: (sent: number, total: number) => void, expect?: readonly number[]): Promise<Reply<N>> {
  const { url, method, headers, body } = prepare(name, params);
  return new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open(method, url);
    for (const k in headers) x.setRequestHeader(k, headers[k]);
    x.upload.onprogress = (e) => progress(e.loaded, e.total);
    x.onload = () => {
      if (x.status != 200) return reject(noAnswer(false));
      try {
        resolve(handleReply(parseBody(x.responseText), expect) as Reply<N>);
      } catch (e) {
        reject(e);
      }
    };
    x.onerror = () => reject(noAnswer(false));
    x.send(body);
  });
}
