// The small driver the engines' scenario is written against (issue 34 §1):
// open a path, fill a field found by its label, click a control by its name,
// wait for a text or a state, read the document's direction or an element's
// box, run a script, collect the errors. Each browser engine gives the few
// primitives of `Engine` (firefox.ts over WebDriver BiDi, webkit.ts over W3C
// WebDriver classic); everything else is here once, so both engines run the
// very same steps.

/** How a control is found, as a person finds it: a field by its label, the rest by its accessible name. */
export type Role = 'field' | 'button' | 'link' | 'menuitem';
export interface Target {
  role: Role;
  name: string;
}

/** What an engine gives the driver. */
export interface Engine {
  /** The engine and its version, as the browser says them ("Firefox 153.8.0esr", "WebKitGTK 2.50.6"). */
  readonly name: string;
  /** Load `url`, answer once its load event has fired. */
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /** `expression` (from pageCall) evaluated in the page, its promise awaited; the value as JSON. */
  evaluate(expression: string): Promise<unknown>;
  /** Clear the control `expression` answers and type `text` into it with the engine's own key input. */
  type(expression: string, text: string): Promise<void>;
  /** Click the control `expression` answers with the engine's own pointer input. */
  click(expression: string): Promise<void>;
  /** The window as a PNG (a failed step leaves one in test-results/engines/). */
  screenshot(): Promise<Buffer>;
  /** Errors only the engine itself reports (uncaught ones and console errors, from a page's start), where it can. */
  engineErrors(): string[];
  /** Close the browser and everything started for it (driver, display, profile). */
  close(): Promise<void>;
}

/**
 * `fn(...args)` as one expression for a page. Written as TypeScript here, a
 * function reaches the page as its source text; tsx (esbuild's keepNames)
 * wraps a named inner function in `__name(...)`, which the page does not
 * have, so the expression brings an identity `__name` of its own.
 */
export const pageCall = (fn: (...args: never[]) => unknown, ...args: unknown[]) => `((__name) => (${fn.toString()}).apply(null, ${JSON.stringify(args)}))((f) => f)`;

/**
 * In the page: the one visible control `role` named `name` ('element'), or
 * why there is not exactly one (a string); 'why': only that ('' when there is
 * one); 'value': the field's value. A field's name is its label's text; a
 * button's, link's or menu item's its aria-label or its text. (One function for the three: the console's policy allows no
 * eval, so the page cannot be handed a function to call another with.)
 */
export function locate(role: Role, name: string, want: 'element' | 'why' | 'value'): Element | string {
  const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  const shown = (el: Element) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const labelText = (el: Element) => norm([...((el as HTMLInputElement).labels ?? [])].map((l) => l.textContent).join(' '));
  const selector = {
    field: 'input:not([type=radio]):not([type=checkbox]), select, textarea',
    button: 'button, [role=button], input[type=submit], input[type=button]',
    link: 'a[href]',
    menuitem: '[role=menuitem]',
  }[role];
  const named = [...document.querySelectorAll(selector)].filter((el) => {
    const own = el.getAttribute('aria-label') ?? (el.getAttribute('aria-labelledby') ? norm(el.getAttribute('aria-labelledby')!.split(' ').map((id) => document.getElementById(id)?.textContent).join(' ')) : null);
    if (role === 'field') return norm(own ?? labelText(el)) === name;
    return norm(own ?? (el as HTMLElement).innerText ?? el.textContent) === name;
  });
  const visible = named.filter(shown);
  if (visible.length === 1) return want === 'element' ? visible[0] : want === 'why' ? '' : (visible[0] as HTMLInputElement).value;
  return `${visible.length} visible ${role}s named "${name}"${named.length > visible.length ? ` (and ${named.length - visible.length} hidden)` : ''}`;
}

/**
 * In the page: start recording errors once (uncaught errors, failed loads of
 * scripts, styles and images, unhandled rejections, console.error, CSP
 * violations, and any resource of this page answered with an error status),
 * and hand over what was recorded since the last call.
 */
export function recordErrors(): string[] {
  const w = window as unknown as { __consoleErrors?: string[] };
  if (!w.__consoleErrors) {
    const errors: string[] = (w.__consoleErrors = []);
    addEventListener(
      'error',
      (e) => errors.push(e.message ? `uncaught: ${e.message}` : `failed to load: ${(e.target as HTMLImageElement).src || (e.target as HTMLLinkElement).href}`),
      true,
    );
    addEventListener('unhandledrejection', (e) => errors.push(`unhandled rejection: ${e.reason}`));
    document.addEventListener('securitypolicyviolation', (e) => errors.push(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    const original = console.error;
    console.error = (...a: unknown[]) => {
      errors.push(`console.error: ${a.map(String).join(' ')}`);
      original.apply(console, a);
    };
    // What was loaded before the recorder came (an engine without a preload script): any error status.
    for (const r of performance.getEntries() as (PerformanceEntry & { responseStatus?: number })[])
      if ((r.responseStatus ?? 0) >= 400) errors.push(`HTTP ${r.responseStatus}: ${r.name}`);
  }
  return w.__consoleErrors.splice(0);
}

/** How long a step may wait for the page: a guard against a hang, many times what it takes. */
const WAIT_MS = 15_000;

export class Driver {
  private errorsSeen: string[] = [];
  constructor(
    readonly engine: Engine,
    readonly baseUrl: string,
  ) {}

  get name(): string {
    return this.engine.name;
  }

  /** Run `fn(...args)` in the page; its value. */
  run<T, A extends unknown[]>(fn: (...args: A) => T | Promise<T>, ...args: A): Promise<T> {
    return this.engine.evaluate(pageCall(fn, ...args)) as Promise<T>;
  }

  /** Open `path` of the console (a page load), with the error recorder in it. */
  async open(path: string): Promise<void> {
    await this.keepErrors();
    await this.engine.goto(new URL(path, this.baseUrl).href);
    await this.run(recordErrors);
  }

  async reload(): Promise<void> {
    await this.keepErrors();
    await this.engine.reload();
    await this.run(recordErrors);
  }

  /**
   * Wait until `fn(...args)` answers true (or '' for a check that answers why not); `what` names it
   * when it does not. A page that is between two documents cannot answer: that is "not yet".
   */
  async until<A extends unknown[]>(what: string, fn: (...args: A) => unknown, ...args: A): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    let last: unknown;
    for (;;) {
      last = await this.run(fn, ...args).catch((e: Error) => `the page did not answer: ${e.message}`);
      if (last === true || last === '') return;
      if (Date.now() > deadline) throw new Error(`${this.name}: waited ${WAIT_MS / 1000} s for ${what}; last: ${JSON.stringify(last)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Wait for exactly one visible control `role` named `name`; the expression that finds it. */
  private async one(role: Role, name: string): Promise<string> {
    await this.until(`a ${role} named "${name}"`, locate, role, name, 'why');
    return pageCall(locate, role, name, 'element');
  }

  /** Type `value` into the field labelled `label` (what was there goes), and check the field holds it. */
  async fill(label: string, value: string): Promise<void> {
    await this.engine.type(await this.one('field', label), value);
    const now = await this.run(locate, 'field', label, 'value');
    if (now !== value) throw new Error(`${this.name}: the field "${label}" holds ${JSON.stringify(now)} after typing ${JSON.stringify(value)}`);
  }

  /** Click the control `role` named `name` (a button unless said). */
  async click(name: string, role: Role = 'button'): Promise<void> {
    await this.engine.click(await this.one(role, name));
  }

  /** The value of the field labelled `label`. */
  async value(label: string): Promise<string> {
    await this.one('field', label);
    return (await this.run(locate, 'field', label, 'value')) as string;
  }

  /** Wait until the page shows `text` (in its visible text). */
  waitForText(text: string): Promise<void> {
    return this.until(`the text "${text}"`, (t: string) => document.body.innerText.includes(t), text);
  }

  /** Wait until the address's path (and query) matches `re`. */
  waitForPath(re: RegExp): Promise<void> {
    return this.until(`a path matching ${re}`, (src: string, flags: string) => new RegExp(src, flags).test(location.pathname + location.search) || location.pathname + location.search, re.source, re.flags);
  }

  /** The document's direction and language (html dir and lang). */
  document(): Promise<{ dir: string; lang: string }> {
    return this.run(() => ({ dir: document.documentElement.dir, lang: document.documentElement.lang }));
  }

  /**
   * The first element `selector` matches: its box on the page, once there is one. The document's
   * language and direction are set before the console draws its shell: a check of them passes first.
   */
  async box(selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
    await this.until(`an element ${selector}`, (s: string) => document.querySelector(s) !== null, selector);
    return this.run((s: string) => {
      const r = document.querySelector(s)!.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }, selector);
  }

  /** The window's width, and how far the page reaches past its visible width sideways (0: no horizontal overflow). */
  overflow(): Promise<{ width: number; beyond: number }> {
    return this.run(() => ({ width: innerWidth, beyond: document.documentElement.scrollWidth - document.documentElement.clientWidth }));
  }

  /** Every error since the start: the engine's own and the page's recorder's. */
  async errors(): Promise<string[]> {
    await this.keepErrors();
    return [...this.engine.engineErrors(), ...this.errorsSeen];
  }

  /** Take what the page's recorder has before the page goes away. */
  private async keepErrors(): Promise<void> {
    const has = await this.run(() => !!(window as unknown as { __consoleErrors?: string[] }).__consoleErrors).catch(() => false);
    if (has) this.errorsSeen.push(...(await this.run(recordErrors)));
  }
}
