// A W3C WebDriver (classic) client: plain JSON over HTTP, the few commands
// the engines' driver needs (new session, navigate, refresh, execute script,
// element click, clear and send keys, window size, screenshot, delete
// session). Ours rather than selenium-webdriver or webdriverio: these ten
// commands are all the suite uses, over the fetch Node has, with no package
// and its own dependencies to keep current for them.

/** The key W3C WebDriver gives an element reference in JSON. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** A command's failure, with WebDriver's error code and message. */
export class WebDriverError extends Error {
  constructor(
    readonly command: string,
    readonly code: string,
    message: string,
  ) {
    super(`WebDriver ${command}: ${code}${message ? `: ${message}` : ''}`);
  }
}

/** How long one command may take: a guard against a hang (a page load is one command). */
const COMMAND_MS = 60_000;

async function send(base: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(COMMAND_MS),
  });
  const reply = (await res.json()) as { value: unknown };
  const value = reply.value as { error?: string; message?: string } | null;
  if (!res.ok || (value && typeof value === 'object' && typeof value.error === 'string')) throw new WebDriverError(`${method} ${path}`, value?.error ?? String(res.status), value?.message ?? '');
  return reply.value;
}

/** Whether the driver at `base` is ready for a new session (GET /status). */
export async function ready(base: string): Promise<boolean> {
  try {
    return ((await send(base, 'GET', '/status')) as { ready?: boolean }).ready === true;
  } catch {
    return false;
  }
}

export class WebDriverSession {
  private constructor(
    private readonly base: string,
    readonly id: string,
    readonly capabilities: Record<string, unknown>,
  ) {}

  /** A new session at the driver listening on `base`, with `alwaysMatch` capabilities. */
  static async start(base: string, alwaysMatch: Record<string, unknown>): Promise<WebDriverSession> {
    const v = (await send(base, 'POST', '/session', { capabilities: { alwaysMatch } })) as { sessionId: string; capabilities: Record<string, unknown> };
    return new WebDriverSession(base, v.sessionId, v.capabilities);
  }

  private cmd(method: string, path: string, body?: unknown): Promise<unknown> {
    return send(this.base, method, `/session/${this.id}${path}`, body);
  }

  /** Navigate; answers once the page has loaded (pageLoadStrategy "normal"). */
  async navigate(url: string): Promise<void> {
    await this.cmd('POST', '/url', { url });
  }

  async refresh(): Promise<void> {
    await this.cmd('POST', '/refresh', {});
  }

  async setWindowSize(width: number, height: number): Promise<void> {
    await this.cmd('POST', '/window/rect', { width, height });
  }

  /**
   * Evaluate `expression` in the page, its promise awaited: Execute Async
   * Script with the callback WebDriver passes last, so a rejection comes back
   * as the page's own error text rather than a driver timeout.
   */
  async evaluate(expression: string): Promise<unknown> {
    const script = `const done = arguments[arguments.length - 1];
Promise.resolve().then(() => ${expression}).then((value) => done({ value }), (e) => done({ error: e instanceof Error ? e.name + ': ' + e.message + '\\n' + e.stack : String(e) }));`;
    const r = (await this.cmd('POST', '/execute/async', { script, args: [] })) as { value?: unknown; error?: string };
    if (r.error !== undefined) throw new Error(`in the page: ${r.error}`);
    return r.value;
  }

  /** The element `expression` answers (an Element; a string says why there is none): its reference. */
  async element(expression: string): Promise<string> {
    const v = (await this.cmd('POST', '/execute/sync', { script: `return ${expression};`, args: [] })) as Record<string, string> | string;
    if (typeof v === 'string' || !v?.[ELEMENT]) throw new Error(`no element: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
    return v[ELEMENT];
  }

  async click(element: string): Promise<void> {
    await this.cmd('POST', `/element/${element}/click`, {});
  }

  async clear(element: string): Promise<void> {
    await this.cmd('POST', `/element/${element}/clear`, {});
  }

  async sendKeys(element: string, text: string): Promise<void> {
    await this.cmd('POST', `/element/${element}/value`, { text });
  }

  /** The window as a PNG. */
  async screenshot(): Promise<Buffer> {
    return Buffer.from((await this.cmd('GET', '/screenshot')) as string, 'base64');
  }

  /** End the session: the driver closes the browser. */
  async end(): Promise<void> {
    await this.cmd('DELETE', '');
  }
}
