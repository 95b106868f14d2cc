// The part of the screen-open benchmark (bench/web.ts) that runs inside the page: installed with
// `addInitScript` before the app's own scripts, it notes when a menu entry or the login button is clicked,
// collects long tasks, and watches, frame by frame, for the screen it was told to wait for.
//
// It is plain JavaScript in a string, not a function handed to `page.evaluate`: tsx compiles this file with
// esbuild's keepNames, which wraps named functions in a `__name(...)` helper the page does not have, and the
// benchmark's TypeScript project has no DOM types.

/** What shows that a screen is ready (docs/performance.md, "Screens open fast"). */
export type ReadyMarker =
  /** The page's table: its first data row visible (or, for an empty list, the empty placeholder with no spinner). */
  | { kind: 'table' }
  /** Every one of these selectors matches a visible element inside the page. */
  | { kind: 'content'; selectors: string[] };

/** One resource the page fetched after the click, times in ms from the click. */
export interface ResourceTiming {
  name: string;
  initiator: string;
  start: number;
  end: number;
  /** Bytes on the wire (headers included), 0 when served from the HTTP cache. */
  transfer: number;
  /** Body bytes as the server sent them (the server does not compress, so this is the file size). */
  body: number;
}

export interface ReadyResult {
  /** ms from the click (in the page's clock) to the first frame that shows the screen ready. */
  ms: number;
  /** The table was ready because the list is empty (no data row to wait for). */
  empty: boolean;
  /** Not ready within the time limit: `ms` is the limit. */
  timedOut: boolean;
  resources: ResourceTiming[];
  longTasks: { start: number; duration: number }[];
}

export const PROBE_SCRIPT = String.raw`
(() => {
  if (window.__bench) return;
  const bench = (window.__bench = { click: null, longTasks: [], watch: null });
  // Room for every request of a long session (the default keeps 250 and then drops new ones).
  performance.setResourceTimingBufferSize(100000);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) {
    // No long-task timing in this browser: the list stays empty.
  }
  document.addEventListener(
    'click',
    (event) => {
      const target = event.target instanceof Element ? event.target : null;
      const entry = target && target.closest('[data-testid="sidebar"] [data-route], [data-testid="login-submit"]');
      if (!entry) return;
      bench.click = performance.now();
      performance.mark('bench-click');
    },
    true,
  );
  const shown = (el) => el.checkVisibility() && el.getBoundingClientRect().height > 0;
  // Cheap queries first: visibility forces style and layout, so it is asked only of a candidate.
  const isReady = (name, marker) => {
    const root = document.querySelector('.cache-component.active[data-cache-key="' + name + '"]');
    if (!root) return null;
    if (marker.kind === 'table') {
      const row = root.querySelector('.ant-table-tbody > tr.ant-table-row');
      if (row) return shown(row) ? { empty: false } : null;
      if (root.querySelector('.ant-table-wrapper .ant-spin-spinning')) return null;
      const empty = root.querySelector('.ant-table-placeholder .ant-empty');
      return empty && shown(empty) ? { empty: true } : null;
    }
    const found = marker.selectors.map((selector) => root.querySelector(selector));
    return found.every((el) => el && shown(el)) ? { empty: false } : null;
  };
  // Armed before the click: polls once per frame, so a screen that shows at once is seen in its first frame.
  bench.arm = (name, marker, timeoutMs) => {
    bench.click = null;
    bench.longTasks = bench.longTasks.filter((t) => t.start > performance.now() - 1000);
    const watch = { done: null };
    bench.watch = watch;
    watch.promise = new Promise((resolve) => {
      const started = performance.now();
      const tick = (frameTime) => {
        if (bench.watch !== watch) return resolve(null);
        const ready = bench.click === null ? null : isReady(name, marker);
        if (ready) {
          performance.mark('bench-ready');
          return resolve({ at: frameTime, empty: ready.empty });
        }
        if (performance.now() - started > timeoutMs) return resolve({ timeout: true });
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  };
  bench.result = async () => {
    const found = await bench.watch.promise;
    if (!found || bench.click === null) return null;
    const from = bench.click;
    const until = found.timeout ? performance.now() : found.at;
    const resources = performance
      .getEntriesByType('resource')
      .filter((r) => r.startTime >= from - 1)
      .map((r) => ({
        name: r.name,
        initiator: r.initiatorType,
        start: r.startTime - from,
        end: r.responseEnd - from,
        transfer: r.transferSize,
        body: r.encodedBodySize,
      }));
    const longTasks = bench.longTasks
      .filter((t) => t.start + t.duration > from && t.start < until)
      .map((t) => ({ start: t.start - from, duration: t.duration }));
    return { ms: until - from, empty: Boolean(found.empty), timedOut: Boolean(found.timeout), resources, longTasks };
  };
})();
`;
