/**
 * Instrumentation injected into the page by bench/app.ts (`page.addInitScript`) before the app's
 * own scripts run. Plain browser JavaScript: it is not part of the app bundle, and it reads the
 * app only through the DOM and its accessible names (no hooks in the app).
 *
 * It exposes `window.__bench`:
 * - `phase` (set by the runner) tags every long task the PerformanceObserver reports;
 * - `load` holds the times of the load: `handedAt` (the file input's `change` event, captured on
 *   the document before the app sees it), `rowsAt` (a MutationObserver callback that sees the
 *   first timeline row with data, i.e. the commit that put it in the DOM) and `paintAt` (the
 *   `requestAnimationFrame` callback after that commit: the frame that paints it);
 * - `seek(step)` moves the cursor with the Step slider and resolves with the time to the commit
 *   of the new surface and to the frame that paints it;
 * - `rowCount()` counts the timeline's row elements in the DOM.
 */
(() => {
  const bench = {
    phase: 'boot',
    longTasks: [],
    load: { handedAt: null, rowsAt: null, paintAt: null },
  };
  window.__bench = bench;

  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      bench.longTasks.push({ phase: bench.phase, start: entry.startTime, duration: entry.duration });
    }
  }).observe({ type: 'longtask', buffered: true });

  const timelineRow = () => document.querySelector('section[aria-label="Timeline"] [role="row"][data-seq]');

  document.addEventListener(
    'change',
    (event) => {
      const target = event.target;
      if (!(target instanceof HTMLInputElement) || target.type !== 'file') return;
      bench.load = { handedAt: performance.now(), rowsAt: null, paintAt: null };
      const observer = new MutationObserver(() => {
        if (bench.load.rowsAt !== null || !timelineRow()) return;
        bench.load.rowsAt = performance.now();
        observer.disconnect();
        requestAnimationFrame(() => {
          bench.load.paintAt = performance.now();
        });
      });
      observer.observe(document.body, { childList: true, subtree: true, attributes: true });
    },
    true,
  );

  const valueSetter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  const formatCount = new Intl.NumberFormat('en-US');

  /**
   * True when the Surface panel shows the answer for `step`: its "what step k changed" line and
   * its node list come from the same engine answer, and the line carries the step in
   * `data-surface-step` (and no node is still a placeholder). Builds without that attribute are
   * recognised by the line's text, which names the seq step k applied (`appended 412`,
   * `… with 905`, `… 17 is log-only`).
   */
  function surfaceShows(surface, step, seq) {
    const marked = surface.querySelector('[data-surface-step]');
    if (marked) return marked.getAttribute('data-surface-step') === String(step) && !surface.querySelector('[aria-busy="true"]');
    const change = surface.querySelector('.surface-change');
    if (!change) return false;
    const text = change.lastElementChild ? change.lastElementChild.textContent : '';
    if (step === 0) return text.startsWith('step 0');
    const names = text === `appended ${seq}` || text.endsWith(` with ${seq}`) || text.includes(` ${seq} is log-only`);
    return names && change.textContent.includes(`step ${formatCount.format(step)}`);
  }

  /**
   * Moves the cursor to `step` with the Step slider, as a user dragging it does (an `input`
   * event), and times it: `commit` is the MutationObserver callback that first sees the new
   * surface in the DOM, `frame` the requestAnimationFrame callback after it, i.e. the start of
   * the frame that paints it. Both are measured from just before the event is dispatched.
   */
  bench.seek = (step, seq) =>
    new Promise((resolve, reject) => {
      const input = document.querySelector('input[type="range"][aria-label="Step"]');
      const surface = document.querySelector('section[aria-label="Surface"]');
      if (!input || !surface) return reject(new Error('no Step slider or Surface panel'));
      let commit = null;
      const timer = setTimeout(() => {
        observer.disconnect();
        reject(new Error(`seek to ${step} timed out`));
      }, 5000);
      const observer = new MutationObserver(() => {
        if (commit !== null || !surfaceShows(surface, step, seq)) return;
        commit = performance.now() - t0;
        observer.disconnect();
        requestAnimationFrame(() => {
          clearTimeout(timer);
          resolve({ commit, frame: performance.now() - t0 });
        });
      });
      observer.observe(surface, { childList: true, subtree: true, attributes: true, characterData: true });
      const t0 = performance.now();
      valueSetter.call(input, String(step));
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });

  bench.rowCount = () => document.querySelectorAll('section[aria-label="Timeline"] [role="row"]').length;

  /** Seqs of the timeline rows (with data) whose box is inside the scroll viewport. */
  bench.visibleSeqs = () => {
    const grid = document.querySelector('section[aria-label="Timeline"] [role="grid"]');
    if (!grid) return [];
    const box = grid.getBoundingClientRect();
    return [...grid.querySelectorAll('[role="row"][data-seq]')]
      .filter((row) => {
        const r = row.getBoundingClientRect();
        return r.bottom > box.top + 1 && r.top < box.bottom - 1;
      })
      .map((row) => Number(row.getAttribute('data-seq')));
  };

  bench.frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));

  /**
   * Resolves once the app has settled: no DOM change for `quietMs` and the main thread idle
   * (requestIdleCallback), or after `maxMs`. Seeks are measured from a settled app, one at a
   * time, as a user seeking to a step would.
   */
  bench.settle = (quietMs = 100, maxMs = 3000) =>
    new Promise((resolve) => {
      const started = performance.now();
      let last = performance.now();
      const observer = new MutationObserver(() => {
        last = performance.now();
      });
      observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
      const check = () => {
        const now = performance.now();
        if (now - last >= quietMs || now - started >= maxMs) {
          observer.disconnect();
          requestIdleCallback(() => resolve(), { timeout: 500 });
        } else setTimeout(check, quietMs - (now - last));
      };
      setTimeout(check, quietMs);
    });
})();
