// Calls that answer a file (an export, a photo): the same request as every
// other call (SPEC §7 General), but a success is the file itself. A failure
// still answers the JSON envelope and is handled as SPEC §8 says. Not on the
// login path: only signed-in screens import this.
import type { CallName, RequestOf } from './contract.ts';
import { handleReply, parseBody, transport } from './request.ts';

/** The file a call answers; rejects (after saying why) when the device answers an error instead. */
export async function requestFile<N extends CallName>(name: N, params?: RequestOf<N>): Promise<Blob> {
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
