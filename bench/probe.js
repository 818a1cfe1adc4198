// In-page probe of `npm run bench` (bench/browser.ts adds it to every page
// before the console's own scripts; tests/browser/routes.spec.ts walks the
// routes with its walk()). Plain JavaScript, passed as text: what
// runs in the page is exactly this. Every time is performance.now(), ms from
// the start of the navigation.
(() => {
  const b = (window.__bench = {
    /** The password field in the DOM, visible and enabled; the frame that shows it. */
    seen: 0,
    usable: 0,
    /** Sign in pressed; the user list's first row in the DOM; the frame that shows it. */
    click: 0,
    rows: 0,
    rowsFrame: 0,
    /** fetch() calls not yet answered. */
    inflight: 0,
    /** The list call whose renders are timed, the rows a page holds, and the renders (ms). */
    list: '',
    pageRows: 0,
    renders: [],
    armed: false,
    before: null,
  });
  const onFrame = (cb) => requestAnimationFrame(() => cb(performance.now()));
  const watch = (observer) => observer.observe(document, { childList: true, subtree: true, attributes: true });

  // The login form is usable once its password field is on screen and enabled.
  const visible = (el) => {
    if (el.disabled || el.readOnly) return false;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0;
  };
  const login = new MutationObserver(() => {
    const el = document.querySelector('input[type=password]');
    if (!el || !visible(el)) return;
    login.disconnect();
    b.seen = performance.now();
    onFrame((t) => (b.usable = t));
  });
  watch(login);

  // Sign in pressed, then the user list with a row of data (not the "no users" row).
  addEventListener(
    'click',
    (e) => {
      if (!b.click && e.target instanceof Element && e.target.closest('button[type=submit]')) b.click = performance.now();
    },
    true,
  );
  const list = new MutationObserver(() => {
    if (!b.click || location.pathname !== '/user/userList') return;
    if (!document.querySelector('main table tbody tr td:not([colspan])')) return;
    list.disconnect();
    b.rows = performance.now();
    onFrame((t) => (b.rowsFrame = t));
  });
  watch(list);

  // fetch: calls in flight, and for the list call b.list the reply read in
  // full before the console sees it, then mark t0 (the network is behind us).
  const fetch0 = window.fetch;
  window.fetch = async function (input, init) {
    b.inflight++;
    try {
      const res = await fetch0.call(this, input, init);
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url, location.href);
      if (!b.list || url.pathname !== `/goform/${b.list}`) return res;
      const body = await res.arrayBuffer();
      b.before = document.querySelector('main table tbody');
      b.armed = true;
      performance.mark('bench-t0');
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    } finally {
      b.inflight--;
    }
  };
  // t1: the table holds a page of b.pageRows rows (a new table body: the old one was replaced by "Loading").
  const table = new MutationObserver(() => {
    if (!b.armed) return;
    const body = document.querySelector('main table tbody');
    if (!body || body === b.before || body.rows.length < b.pageRows) return;
    b.armed = false;
    performance.mark('bench-t1');
    b.renders.push(performance.measure('bench-render', 'bench-t0', 'bench-t1').duration);
  });
  b.timeList = (call, rows) => {
    b.list = call;
    b.pageRows = rows;
    b.renders = [];
    table.observe(document.body, { childList: true, subtree: true });
  };

  // Client-side navigation (wouter listens for popstate) to each path in
  // turn, waiting for the screen to settle: the path shown, <main> changed
  // and holding content, nothing loading or busy, no call in flight, and
  // the DOM unchanged over two frames. A screen that has not settled after
  // limitMs is reported and the walk goes on.
  const settled = () => {
    const main = document.querySelector('main');
    return !!main && main.childElementCount > 0 && b.inflight === 0 && !document.querySelector('[aria-busy="true"], .loading');
  };
  const go = async (path, limitMs) => {
    let changed = location.pathname === path;
    let stamp = 0;
    const seen = new MutationObserver(() => {
      changed = true;
      stamp++;
    });
    seen.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
    history.pushState(null, '', path);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
    const t0 = performance.now();
    let quiet = -1;
    try {
      for (;;) {
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        if (location.pathname === path && changed && settled()) {
          if (quiet === stamp) return true;
          quiet = stamp;
        } else quiet = -1;
        if (performance.now() - t0 > limitMs) return false;
      }
    } finally {
      seen.disconnect();
    }
  };
  b.walk = async (paths, limitMs) => {
    const t0 = performance.now();
    const unsettled = [];
    for (const p of paths) if (!(await go(p, limitMs))) unsettled.push(p);
    return { ms: performance.now() - t0, unsettled };
  };
})();
