// A link to the terminal that a test can cut and mend: an HTTP proxy on
// loopback that a browser context is given (Playwright's `proxy`), passing
// plain HTTP requests on and tunnelling HTTPS (CONNECT) as it comes. cut()
// ends every connection open through it and refuses new ones until mend():
// what a dropped network does to an open event stream, on the simulator and
// on a real terminal alike, with the terminal itself untouched (the browser's
// offline mode does not end a stream that is already open).
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface Link {
  /** The proxy's address, for `proxy: { server }`. */
  url: string;
  /** Every connection through the link ends; new ones are refused until mend(). */
  cut(): void;
  mend(): void;
  close(): Promise<void>;
}

export async function cuttableLink(): Promise<Link> {
  const open = new Set<Socket>();
  let down = false;
  const keep = (s: Socket) => {
    open.add(s);
    s.once('close', () => open.delete(s));
    // A cut ends a connection from either side: the errors that follow are the cut itself.
    s.on('error', () => s.destroy());
  };

  // Plain HTTP: the browser asks for the whole URL; it goes on to the terminal as it is, the answer streamed back.
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const out = httpRequest(req.url!, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('socket', keep);
    out.on('error', () => res.destroy());
    req.pipe(out);
  };
  const server = createServer(forward);
  server.on('connection', (s: Socket) => (down ? s.destroy() : keep(s)));
  // HTTPS: a tunnel to the terminal's port, bytes both ways.
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [host, port] = [req.url!.replace(/:\d+$/, '').replace(/^\[|\]$/g, ''), Number(/:(\d+)$/.exec(req.url!)?.[1] ?? 443)];
    const far = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      far.write(head);
      far.pipe(client);
      client.pipe(far);
    });
    keep(far);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut() {
      down = true;
      for (const s of open) s.destroy();
    },
    mend() {
      down = false;
    },
    close() {
      for (const s of open) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
