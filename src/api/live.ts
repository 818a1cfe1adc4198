// Live events (docs/API.md, "Live events"): EventStream read as Server-Sent
// Events through fetch, which (unlike EventSource) sends the session token in
// its header. A drop is reported and the stream opened again from the last
// event seen, so nothing is missed. Where the web server cannot stream (the
// device answers 10001, or twice nothing at all within two heartbeats: a
// buffering proxy), the console asks SetEventList every few seconds instead.
import type { Reply, ResponseOf } from '../../contract/index.ts';
import { EVENT_HEARTBEAT_MS, EVENTS_PER_PAGE } from '../../contract/event-limits.ts';
import { GoformError, handleReply, parseBody, prepare } from './request.ts';

export type LiveEvent = ResponseOf<'EventStream'>;
/** How the console hears the device: 0 not (connecting, or the link dropped), 1 by the stream, 2 by asking. */
export type Hearing = 0 | 1 | 2;

const POLL_MS = 3000;
/** The wait before opening the stream again (the stream's own "retry"). */
const RETRY_MS = 2000;

/** Follow the device's events until the returned function is called; `onState` hears each change of how. */
export function follow(onEvent: (e: LiveEvent) => void, onState: (h: Hearing) => void): () => void {
  const stop = new AbortController();
  let one = new AbortController();
  let last = 0;
  let silent = 0;
  let polling = false;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const take = (e: LiveEvent) => {
    last = e.Id;
    onEvent(e);
  };
  /** A call without the request layer's toasts: the state line says a drop. */
  const ask = ({ url, ...init }: ReturnType<typeof prepare>, signal: AbortSignal) => fetch(url, { ...init, cache: 'no-store', signal });
  /** A JSON answer: the session's end signs out (handleReply), 10001 means no stream here. */
  const judge = async (res: Response) => handleReply(parseBody(await res.text()), [10001]) as Reply<'SetEventList'>;

  const listen = async () => {
    one = new AbortController();
    let heard = false;
    let dog = 0 as unknown as ReturnType<typeof setTimeout>;
    const watch = () => {
      clearTimeout(dog);
      dog = setTimeout(() => one.abort(), 2 * EVENT_HEARTBEAT_MS + 5000);
    };
    try {
      watch();
      const res = await ask(prepare('EventStream', { After: last }), one.signal);
      if (!/event-stream/.test(res.headers.get('content-type') ?? '')) {
        polling = (await judge(res)).retvalue === 10001;
        return;
      }
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        watch();
        if (!heard) onState(1);
        heard = true;
        text += value;
        const blocks = text.split('\n\n');
        text = blocks.pop()!;
        for (const b of blocks) for (const line of b.split('\n')) if (line.startsWith('data:')) take(JSON.parse(line.slice(5)) as LiveEvent);
      }
    } finally {
      clearTimeout(dog);
      silent = heard ? 0 : silent + 1;
      if (silent > 1) polling = true;
    }
  };

  const poll = async () => {
    const r = await judge(await ask(prepare('SetEventList', { After: last }), stop.signal));
    onState(2);
    r.List?.forEach(take);
    return (r.List?.length ?? 0) < EVENTS_PER_PAGE;
  };

  (async () => {
    while (!stop.signal.aborted) {
      try {
        if (polling) {
          if (!(await poll())) continue;
        } else {
          await listen();
          if (!stop.signal.aborted) onState(0);
        }
      } catch (e) {
        // The session ended (handleReply has signed out): nothing more to hear.
        if (e instanceof GoformError || stop.signal.aborted) return;
        onState(0);
      }
      if (stop.signal.aborted) return;
      await pause(polling ? POLL_MS : RETRY_MS);
    }
  })();
  return () => {
    stop.abort();
    one.abort();
  };
}
