// The uvu suites' preload (after tsx): a browser-like global from happy-dom, and
// the same module aliases the build uses (React API -> Preact).
import { register } from 'node:module';
import { Window } from 'happy-dom';

register('./hooks.mjs', import.meta.url);

const window = new Window({ url: 'http://terminal.test/', width: 1280, height: 800 });
const names = [
  'window', 'document', 'navigator', 'location', 'localStorage', 'sessionStorage', 'history',
  'HTMLElement', 'HTMLInputElement', 'HTMLDialogElement', 'Element', 'Node', 'Text', 'Event', 'KeyboardEvent',
  'MouseEvent', 'InputEvent', 'CustomEvent', 'matchMedia', 'getComputedStyle', 'requestAnimationFrame', 'cancelAnimationFrame',
  'MutationObserver', 'DocumentFragment', 'SVGElement', 'scrollTo', 'addEventListener', 'removeEventListener',
];
for (const n of names) {
  const v = window[n];
  Object.defineProperty(globalThis, n, { value: typeof v === 'function' && /^[a-z]/.test(n) ? v.bind(window) : v, configurable: true, writable: true });
}
globalThis.happyWindow = window;
