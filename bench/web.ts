/**
 * Screen-open benchmark (issue 21, "Screens open fast"): how long each menu screen takes, in the browser, from
 * the click on its menu entry to its rows on screen. `npm run build` first (this script builds nothing), then
 * `npm run bench:web`.
 *
 * The real server in its own process, started like the e2e support does (the production web build from
 * packages/web/dist, a fresh SQLite database with the full demo, SIMULATOR=on as `npm start`), Debian's
 * Chromium headless at 1440x900, signed in as `admin`. Every menu screen of the route table
 * (packages/web/src/app/routes.tsx; admin opens them all) is opened by a click on its sidebar entry, what an
 * operator does (the router handles it as it handles a changed location.hash; the click also pays for the
 * menu's own work). A probe in the page (web-probe.ts) notes the click and finds, frame by frame, the first
 * frame in which the screen's ready marker is visible: a table's first data row, or a screen's own content.
 *
 *   cold          the screen opened first after login, in a fresh browser context (empty HTTP cache)
 *   warm          the same screen again, right after going back to the dashboard (the page is kept alive)
 *   session cold  every screen one after another in one login, in menu order: the chunks all lists share
 *   session warm  arrive with the first list, and the screens visited stay alive (up to 20) behind the new one
 * The dashboard's cold figure is from the click on the login button. Each pass does all of it; medians of
 * BENCH_PASSES passes are printed with the main thread's CPU time, where each cold visit's time goes (before
 * the chunks are asked for, chunks, before the API, API, after the data; long tasks; script, layout and style
 * time), the detail screens request by request, what the page does while idle, and one JSON line.
 * docs/performance.md ("Screens open fast") holds the baseline and the diagnosis.
 *
 *   BENCH_PASSES=3            passes
 *   BENCH_MODE=both           isolated (cold and warm), session, or both
 *   BENCH_ONLY=ParkAreas,…    only these screens (route names), with the dashboard
 *   BENCH_DETAIL=ParkAreas,…  screens printed request by request (default: the four the operator trial named
 *                             and the dashboard)
 *   BENCH_TRACE=dir           then each detail screen's cold visit once more with a Chromium trace (written to
 *                             dir): main-thread time by kind of work and the busiest functions in each phase
 *   BENCH_URL=http://…        a running server instead of a new one (ADMIN_PASSWORD: admin's password)
 *   BENCH_WG=off              the server without door controllers (their simulators bind UDP 61000+)
 *   WEB_DIST=dir              another build; BENCH_ENTRY=/other.html boots the app from another HTML file of it
 *                             (two builds side by side in one folder, compared on one server)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser.ts';
import { ADMIN_PASSWORD, REPO_ROOT, WEB_DIST, startServer } from '../e2e/support/server.ts';
import { freeUdpPort } from './support/server.ts';
import { PROBE_SCRIPT, type ReadyMarker, type ReadyResult } from './web-probe.ts';
import { summariseTrace, type Phase, type TraceSummary } from './web-trace.ts';

const PASSES = Number(process.env.BENCH_PASSES ?? 3);
const DETAIL = (process.env.BENCH_DETAIL ?? 'Dashboard,DeviceManagement,ParkAreas,ChargeSockets,ChargeOrders')
  .split(',')
  .filter(Boolean);
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const TRACE_DIR = process.env.BENCH_TRACE;
const MODE = process.env.BENCH_MODE ?? 'both';
if (!['both', 'isolated', 'session'].includes(MODE)) throw new Error('BENCH_MODE: both, isolated or session');
const ISOLATED = MODE !== 'session';
const SESSION = MODE !== 'isolated';
/** The page that boots the app: another HTML file in the build lets two builds be compared side by side. */
const ENTRY = process.env.BENCH_ENTRY ?? '/';
/** The build measured (WEB_DIST as the server reads it; the repository's packages/web/dist by default). */
const DIST = process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : WEB_DIST;
const VIEWPORT = { width: 1440, height: 900 };
const TIMEOUT_MS = 30_000;
/** The issue's aim on these machines. */
const AIM = { cold: 1000, warm: 300 };

// ---------------------------------------------------------------------------------------------------------
// The screens: every menu entry of the route table (read at run time, so a new screen is measured at once).

interface RouteEntry {
  path: string;
  name: string;
  hidden?: boolean;
  query?: Record<string, string>;
  children?: RouteEntry[];
  page?: unknown;
  externalUrl?: string;
}

interface Screen {
  name: string;
  /** Address with the query that tells shared paths apart. */
  path: string;
  /** Sidebar route names to click, groups first. */
  clicks: string[];
  marker: ReadyMarker;
}

/**
 * Ready markers of the screens that show no list (docs/performance.md). Every other screen shows a table:
 * ready when its first data row is visible (or its empty placeholder without a spinner).
 */
const CONTENT_MARKERS: Record<string, string[]> = {
  // The current area's name (its own request), the access-control and garage figures (one request each);
  // the charts below the fold load only when scrolled to, so they are not waited for.
  Dashboard: [
    '[data-testid="dashboard-area-name"]',
    '[data-testid="ac-figure-online"]',
    '[data-testid="figure-sockets"]',
  ],
  Icons: ['.icons-item'],
  SystemSettings: ['[data-testid="settings-form"]'],
  ErrorLog: ['[data-testid="error-log-page"]'],
  I18n: ['[data-testid="i18n-demo"]'],
};

async function loadScreens(): Promise<Screen[]> {
  // Imported by address, not by a literal specifier: the web app's files are not part of the benchmarks'
  // TypeScript project (they need the DOM and JSX). tsx runs them; the route table holds no JSX.
  const routes = (await import(
    pathToFileURL(path.join(REPO_ROOT, 'packages/web/src/app/routes.tsx')).href
  )) as {
    layoutRoutes: RouteEntry[];
  };
  const utils = (await import(
    pathToFileURL(path.join(REPO_ROOT, 'packages/web/src/app/route-utils.ts')).href
  )) as {
    menuLeaves(routes: readonly RouteEntry[]): RouteEntry[][];
    routeHref(route: RouteEntry): string;
  };
  return utils
    .menuLeaves(routes.layoutRoutes)
    .filter((chain) => !chain.at(-1)!.externalUrl)
    .map((chain) => {
      const route = chain.at(-1)!;
      const selectors = CONTENT_MARKERS[route.name];
      return {
        name: route.name,
        path: utils.routeHref(route),
        clicks: chain.map((r) => r.name),
        marker: selectors ? { kind: 'content', selectors } : { kind: 'table' },
      };
    });
}

// ---------------------------------------------------------------------------------------------------------
// Measuring one screen.

/** Chromium's own counters (Performance.getMetrics), differences over one measurement, in ms. */
interface CpuTimes {
  /** CPU time of the renderer's main thread (ThreadTime): what a busy machine inflates least. */
  cpu: number;
  /** All main-thread tasks (wall time inside tasks). */
  task: number;
  /** JavaScript run (compilation included). */
  script: number;
  /** V8 compiling JavaScript (new chunks). */
  compile: number;
  layout: number;
  style: number;
  layouts: number;
}

interface Measurement extends ReadyResult {
  cpu: CpuTimes;
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

function cpuDelta(before: Record<string, number>, after: Record<string, number>): CpuTimes {
  const seconds = (name: string) => Math.round(((after[name] ?? 0) - (before[name] ?? 0)) * 1000);
  return {
    cpu: seconds('ThreadTime'),
    task: seconds('TaskDuration'),
    script: seconds('ScriptDuration'),
    compile: seconds('V8CompileDuration'),
    layout: seconds('LayoutDuration'),
    style: seconds('RecalcStyleDuration'),
    layouts: (after.LayoutCount ?? 0) - (before.LayoutCount ?? 0),
  };
}

interface Session {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
}

async function openSession(
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  url: string,
): Promise<Session> {
  const context = await browser.newContext({ baseURL: url, locale: 'zh-CN', viewport: VIEWPORT });
  await context.addInitScript({ content: PROBE_SCRIPT });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`  page error: ${error.message}`));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { context, page, cdp };
}

/** Arms the probe for `screen`, clicks, waits for the screen to be ready. */
async function measure(session: Session, screen: Screen, click: () => Promise<void>): Promise<Measurement> {
  const { page, cdp } = session;
  await page.evaluate(
    `window.__bench.arm(${JSON.stringify(screen.name)}, ${JSON.stringify(screen.marker)}, ${TIMEOUT_MS})`,
  );
  const before = await metrics(cdp);
  await click();
  const result = (await page.evaluate('window.__bench.result()')) as ReadyResult | null;
  const after = await metrics(cdp);
  if (!result) throw new Error(`${screen.name} (${screen.path}): the click was not seen by the page`);
  // A screen that never gets ready counts as the time limit (and is named), so one stuck screen does not end
  // the run.
  if (result.timedOut) log(`  ${screen.name} (${screen.path}) was not ready within ${TIMEOUT_MS} ms`);
  return { ...result, cpu: cpuDelta(before, after) };
}

/**
 * Gets the screen's sidebar entry ready to click (its group opened, the opening animation over) and returns the
 * click: only the click is timed.
 */
async function menuEntry(page: Page, screen: Screen): Promise<() => Promise<void>> {
  const entry = (name: string) => page.locator(`[data-testid="sidebar"] [data-route="${name}"]`).first();
  const leaf = screen.clicks.at(-1)!;
  for (const [index, group] of screen.clicks.slice(0, -1).entries()) {
    const next = screen.clicks[index + 1]!;
    if (!(await entry(next).isVisible())) {
      await entry(group).click();
      await entry(next).waitFor({ state: 'visible' });
    }
  }
  await entry(leaf).waitFor({ state: 'visible' });
  await page.waitForTimeout(250);
  return () => entry(leaf).click();
}

/** Opens a screen from the menu and measures it. */
async function open(session: Session, screen: Screen): Promise<Measurement> {
  return measure(session, screen, await menuEntry(session.page, screen));
}

async function login(session: Session, dashboard: Screen, password: string): Promise<Measurement> {
  const { page } = session;
  await page.goto(`${ENTRY}#/login`);
  await page.locator('input[name="username"]').fill('admin');
  await page.locator('input[name="password"]').fill(password);
  return measure(session, dashboard, () => page.locator('[data-testid="login-submit"]').click());
}

/** What the page does while nobody touches it: long tasks and API calls over `seconds`. */
interface Idle {
  seconds: number;
  /** Tabs open at the time (the pages of up to 20 of them are kept alive). */
  pages: number;
  longTasks: number;
  longTaskMs: number;
  apiCalls: number;
  /** Main-thread CPU time, ms. */
  cpuMs: number;
}

async function idle(session: Session, seconds: number): Promise<Idle> {
  const { page, cdp } = session;
  const from = (await page.evaluate('performance.now()')) as number;
  const before = await metrics(cdp);
  await page.waitForTimeout(seconds * 1000);
  const after = await metrics(cdp);
  const seen = (await page.evaluate(`({
    pages: document.querySelectorAll('[data-testid="tags-view"] [data-tab]').length,
    tasks: window.__bench.longTasks.filter((t) => t.start >= ${from}).map((t) => t.duration),
    api: performance.getEntriesByType('resource').filter((r) => r.startTime >= ${from} && r.name.includes('/api/')).length,
  })`)) as { pages: number; tasks: number[]; api: number };
  return {
    seconds,
    pages: seen.pages,
    longTasks: seen.tasks.length,
    longTaskMs: seen.tasks.reduce((sum, d) => sum + d, 0),
    apiCalls: seen.api,
    cpuMs: cpuDelta(before, after).cpu,
  };
}

interface PassResult {
  /** Each screen opened first after login, in a session of its own (then the dashboard, then it again). */
  cold: Map<string, Measurement>;
  warm: Map<string, Measurement[]>;
  /** All screens one after another in one session, in menu order. */
  sessionCold: Map<string, Measurement>;
  sessionWarm: Map<string, Measurement>;
  idleAfterLogin: Idle | null;
  idleAfterTour: Idle | null;
}

const IDLE_SECONDS = 10;

/**
 * One pass. Isolated: for each screen a fresh context, login (a dashboard cold figure), the screen (cold), the
 * dashboard (a dashboard warm figure), the screen again (warm). Then one session through every screen in menu
 * order (cold, the screen before it, itself again: warm), with the page left idle after login and at the end.
 */
async function runPass(
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  url: string,
  password: string,
  screens: Screen[],
): Promise<PassResult> {
  const [dashboard, ...rest] = screens;
  const result: PassResult = {
    cold: new Map(),
    warm: new Map(),
    sessionCold: new Map(),
    sessionWarm: new Map(),
    idleAfterLogin: null,
    idleAfterTour: null,
  };
  const addWarm = (name: string, m: Measurement) =>
    result.warm.set(name, [...(result.warm.get(name) ?? []), m]);
  const logins: Measurement[] = [];
  for (const screen of ISOLATED ? rest : []) {
    const session = await openSession(browser, url);
    try {
      logins.push(await login(session, dashboard!, password));
      result.cold.set(screen.name, await open(session, screen));
      addWarm(dashboard!.name, await open(session, dashboard!));
      addWarm(screen.name, await open(session, screen));
      log(
        `  ${screen.name.padEnd(22)} cold ${ms(result.cold.get(screen.name)!.ms).padStart(5)} ms` +
          `  warm ${ms(result.warm.get(screen.name)![0]!.ms).padStart(4)} ms`,
      );
    } finally {
      await session.context.close();
    }
  }
  // The dashboard after login: the median login of the pass stands for it.
  if (logins.length) {
    result.cold.set(dashboard!.name, medianRun(logins));
    log(
      `  ${dashboard!.name.padEnd(22)} after login ${ms(result.cold.get(dashboard!.name)!.ms).padStart(5)} ms (median of ${logins.length})`,
    );
  }

  if (!SESSION) return result;
  const session = await openSession(browser, url);
  try {
    result.sessionCold.set(dashboard!.name, await login(session, dashboard!, password));
    result.idleAfterLogin = await idle(session, IDLE_SECONDS);
    let previous = dashboard!;
    for (const screen of rest) {
      result.sessionCold.set(screen.name, await open(session, screen));
      const other = await open(session, previous);
      if (!result.sessionWarm.has(previous.name)) result.sessionWarm.set(previous.name, other);
      result.sessionWarm.set(screen.name, await open(session, screen));
      previous = screen;
    }
    result.idleAfterTour = await idle(session, IDLE_SECONDS);
    log(
      `  one session through all screens: cold ${rest.map((s) => ms(result.sessionCold.get(s.name)!.ms)).join(' ')} ms`,
    );
  } finally {
    await session.context.close();
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// Reporting.

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The measurement whose time is the median one (for its breakdown). */
function medianRun(runs: Measurement[]): Measurement {
  const sorted = [...runs].sort((a, b) => a.ms - b.ms);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

const gzipSizes = new Map<string, number>();
/** Gzip size of a built asset, by its URL path (the server sends it uncompressed). */
function gzipSize(urlPath: string): number | null {
  if (!urlPath.startsWith('/assets/')) return null;
  if (!gzipSizes.has(urlPath)) {
    const file = path.join(DIST, urlPath);
    gzipSizes.set(urlPath, fs.existsSync(file) ? zlib.gzipSync(fs.readFileSync(file)).length : 0);
  }
  return gzipSizes.get(urlPath)!;
}

interface Breakdown {
  jsFiles: number;
  jsKb: number;
  apiRequests: number;
  /**
   * The visit cut at the network: before the first chunk is asked for (the click's rendering), chunks (first
   * asked for to last received), before the first API request (the page's first render), API requests
   * (first sent to last answered), after the last answer (rows rendered). A phase with nothing in it is 0.
   */
  phases: { beforeChunks: number; chunks: number; beforeApi: number; api: number; afterData: number };
  longTasks: number;
  longTaskMs: number;
  cpu: CpuTimes;
}

function breakdown(m: Measurement): Breakdown {
  const done = m.resources.filter((r) => r.end <= m.ms);
  const scripts = done.filter((r) => new URL(r.name).pathname.endsWith('.js'));
  const api = done.filter((r) => new URL(r.name).pathname.startsWith('/api/'));
  const firstChunk = scripts.length ? Math.min(...scripts.map((r) => r.start)) : 0;
  const chunksEnd = scripts.length ? Math.max(...scripts.map((r) => r.end)) : 0;
  const firstApi = api.length ? Math.min(...api.map((r) => r.start)) : chunksEnd;
  const apiEnd = api.length ? Math.max(...api.map((r) => r.end)) : firstApi;
  return {
    jsFiles: scripts.length,
    jsKb: scripts.reduce((sum, r) => sum + (gzipSize(new URL(r.name).pathname) ?? 0), 0) / 1024,
    apiRequests: api.length,
    phases: {
      beforeChunks: firstChunk,
      chunks: chunksEnd - firstChunk,
      // Requests sent while chunks still load (the dashboard's) overlap them: nothing in between then.
      beforeApi: Math.max(0, firstApi - chunksEnd),
      api: Math.max(0, apiEnd - Math.max(firstApi, chunksEnd)),
      afterData: m.ms - Math.max(apiEnd, chunksEnd),
    },
    longTasks: m.longTasks.length,
    longTaskMs: m.longTasks.reduce((sum, t) => sum + t.duration, 0),
    cpu: m.cpu,
  };
}

/** The breakdown's phases as spans of the visit (ms from the click), the empty ones left out. */
function phaseSpans(m: Measurement): Phase[] {
  const p = breakdown(m).phases;
  const names: [string, number][] = [
    ['before chunks', p.beforeChunks],
    ['chunks', p.chunks],
    ['before API', p.beforeApi],
    ['API', p.api],
    ['after data', p.afterData],
  ];
  const spans: Phase[] = [];
  let at = 0;
  for (const [name, length] of names) {
    if (length >= 1) spans.push({ name, from: at, to: at + length });
    at += length;
  }
  return spans;
}

const ms = (value: number) => String(Math.round(value));

function timeline(m: Measurement): string[] {
  const rows = m.resources
    .filter((r) => r.start <= m.ms)
    .map((r) => {
      const url = new URL(r.name);
      const gz = gzipSize(url.pathname);
      const what = url.pathname.startsWith('/api/')
        ? `${url.pathname}${url.search.length > 60 ? `${url.search.slice(0, 60)}…` : url.search}`
        : `${url.pathname.replace(/^\/assets\//, '')}${gz ? ` (${(gz / 1024).toFixed(1)} kB gz)` : ''}`;
      return { start: r.start, end: r.end, what };
    })
    .sort((a, b) => a.start - b.start);
  const lines = rows.map(
    (r) =>
      `      ${ms(r.start).padStart(5)} → ${ms(r.end).padStart(5)} ms  ${r.what}${r.end > m.ms ? ' (after ready)' : ''}`,
  );
  const tasks = m.longTasks.map((t) => `${ms(t.start)}+${ms(t.duration)}`).join(', ');
  lines.push(`      long tasks (start+duration ms): ${tasks || 'none'}`);
  lines.push(`      ready at ${ms(m.ms)} ms${m.empty ? ' (empty list)' : ''}`);
  return lines;
}

// ---------------------------------------------------------------------------------------------------------
// Main.

function log(line: string): void {
  console.log(line);
}

if (!process.env.BENCH_URL && !fs.existsSync(path.join(DIST, 'index.html'))) {
  console.error(
    `No web build in ${DIST}. This benchmark measures the production build and does not build it:\n` +
      'run `npm run build` first, then `npm run bench:web`.',
  );
  process.exit(1);
}
/** The newest modification time under a folder (ms). */
function newest(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return Math.max(
    0,
    ...fs.readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs;
    }),
  );
}
if (fs.existsSync(path.join(DIST, 'index.html'))) {
  const built = fs.statSync(path.join(DIST, 'index.html')).mtimeMs;
  log(
    `Measuring the existing web build ${DIST} (built ${new Date(built).toISOString()}); nothing is rebuilt.`,
  );
  const sources = ['packages/web/src', 'packages/shared/src'].map((dir) => newest(path.join(REPO_ROOT, dir)));
  if (!process.env.WEB_DIST && Math.max(...sources) > built)
    log('  The sources changed since: run `npm run build` first to measure them.');
}

let screens = await loadScreens();
if (screens[0]?.name !== 'Dashboard') throw new Error('The route table no longer starts with the dashboard');
if (ONLY) screens = screens.filter((s) => s.name === 'Dashboard' || ONLY.includes(s.name));

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
log(`Machine: ${os.cpus().length} cores, load average ${loadAverage()}`);
const started = Date.now();
let server: Awaited<ReturnType<typeof startServer>> | null = null;
if (!process.env.BENCH_URL) {
  log('Starting the server (fresh SQLite, full demo seed, SIMULATOR=on)…');
  server = await startServer({
    timeoutMs: 300_000,
    env: {
      DEMO_SCALE: '1',
      SIMULATOR: 'on',
      // BENCH_WG=off: no door controllers (their simulated ones bind UDP 61000+, which WG tests running on
      // the same machine may hold); the screens are the same, the devices show offline.
      WG: process.env.BENCH_WG ?? 'on',
      // The gateway's listener on a port of its own: never the fixed 60099 a running demo may hold.
      WG_LISTEN: `127.0.0.1:${await freeUdpPort()}`,
      WEB_DIST: DIST,
    },
  });
  log(`Server ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${server.url}`);
}
const url = server?.url ?? process.env.BENCH_URL!;
const password = server?.adminPassword ?? process.env.ADMIN_PASSWORD ?? ADMIN_PASSWORD;
// A benchmark stopped by hand or crashing must not leave its server running.
process.once('SIGINT', () => void (server?.stop() ?? Promise.resolve()).then(() => process.exit(130)));

const browser = await launchBrowser();
const passes: PassResult[] = [];
let traces: Map<string, TraceSummary> | null = null;
try {
  log(
    `${screens.length} screens, ${PASSES} passes at ${VIEWPORT.width}x${VIEWPORT.height}, opened by clicking their menu entries`,
  );
  for (let pass = 1; pass <= PASSES; pass += 1) {
    log(`Pass ${pass} (load average ${loadAverage()}):`);
    passes.push(await runPass(browser, url, password, screens));
  }
  if (TRACE_DIR) traces = await tracePass(browser, url, password, screens);
} finally {
  await browser.close();
  await server?.stop();
}

/** Median wall-clock and main-thread CPU time of a set of visits (null when there are none). */
function medians(runs: Measurement[]): { ms: number; cpu: number } | null {
  return runs.length ? { ms: median(runs.map((m) => m.ms)), cpu: median(runs.map((m) => m.cpu.cpu)) } : null;
}

const rows = screens.map((screen) => {
  const cold = passes.flatMap((p) => p.cold.get(screen.name) ?? []);
  const sessionCold = passes.flatMap((p) => p.sessionCold.get(screen.name) ?? []);
  return {
    screen,
    cold: medians(cold),
    warm: medians(passes.flatMap((p) => p.warm.get(screen.name) ?? [])),
    sessionCold: medians(sessionCold),
    sessionWarm: medians(passes.flatMap((p) => p.sessionWarm.get(screen.name) ?? [])),
    /** The visit whose breakdown is printed: the median cold one (of the sessions when only they ran). */
    coldRun: medianRun(cold.length ? cold : sessionCold),
    empty: [...cold, ...sessionCold].some((m) => m.empty),
  };
});

const width = Math.max(...screens.map((s) => s.path.length), 10);
const cell = (value: number | null | undefined, aim?: number) =>
  `${(value === null || value === undefined ? '-' : ms(value)).padStart(6)}${aim !== undefined && value && value > aim ? '*' : ' '}`;
log(`\nMedians of ${PASSES} passes: ms from the click to the first frame showing the screen ready`);
log(`(load average at the end ${loadAverage()})\n`);
log(
  `${'screen'.padEnd(width)}    cold    warm | session: cold    warm | CPU ms: cold    warm  session cold    warm`,
);
for (const row of rows) {
  log(
    `${row.screen.path.padEnd(width)} ${cell(row.cold?.ms, AIM.cold)} ${cell(row.warm?.ms, AIM.warm)} |` +
      `${' '.repeat(8)}${cell(row.sessionCold?.ms, AIM.cold)} ${cell(row.sessionWarm?.ms, AIM.warm)} |` +
      `${' '.repeat(7)}${cell(row.cold?.cpu)} ${cell(row.warm?.cpu)} ${' '.repeat(6)}${cell(row.sessionCold?.cpu)} ${cell(row.sessionWarm?.cpu)}` +
      (row.empty ? '  (empty list)' : ''),
  );
}
log(`* over the aim (cold ${AIM.cold} ms, warm ${AIM.warm} ms)`);
log(
  'cold: the first screen opened after login (fresh context: empty HTTP cache); warm: opened again after the ' +
    'dashboard. One session: every screen in menu order in one login, so the chunks all lists share are loaded ' +
    'by the first, and the pages visited stay alive (up to 20) behind the one being opened.',
);
for (const [label, pick] of [
  ['after login', (p: PassResult) => p.idleAfterLogin],
  ['after all screens', (p: PassResult) => p.idleAfterTour],
] as const) {
  const seen = passes.map(pick).filter((i): i is Idle => i !== null);
  if (!seen.length) continue;
  log(
    `Idle ${IDLE_SECONDS} s ${label} (${seen[0]!.pages} tabs open): main-thread CPU ` +
      `${seen.map((i) => ms(i.cpuMs)).join(' / ')} ms, long tasks ${seen.map((i) => `${i.longTasks}/${ms(i.longTaskMs)}`).join(' / ')} ms, ` +
      `API calls ${seen.map((i) => i.apiCalls).join(' / ')} (per pass)`,
  );
}

log(
  `\nWhere a cold visit's time goes (its median run), ms from the click:\n${'screen'.padEnd(width)} ` +
    'before chunks + chunks + before API +  API + after data | JS files / kB gz | API calls | long tasks n / ms | ' +
    'script / layout / style ms',
);
for (const row of rows) {
  const b = breakdown(row.coldRun);
  const p = b.phases;
  log(
    `${row.screen.path.padEnd(width)} ${ms(p.beforeChunks).padStart(13)} + ${ms(p.chunks).padStart(6)} + ` +
      `${ms(p.beforeApi).padStart(10)} + ${ms(p.api).padStart(4)} + ${ms(p.afterData).padStart(10)} | ` +
      `${String(b.jsFiles).padStart(8)} / ${b.jsKb.toFixed(0).padStart(5)} | ${String(b.apiRequests).padStart(9)} | ` +
      `${String(b.longTasks).padStart(12)} / ${ms(b.longTaskMs).padStart(4)} | ${b.cpu.script} / ${b.cpu.layout} / ${b.cpu.style}`,
  );
}

for (const row of rows.filter((r) => DETAIL.includes(r.screen.name))) {
  log(
    `\n  ${row.screen.name} ${row.screen.path}: cold ${ms(row.coldRun.ms)} ms (the median run, times from the click)`,
  );
  for (const line of timeline(row.coldRun)) log(line);
  const trace = traces?.get(row.screen.name);
  if (trace) {
    log(
      `      traced visit (${trace.file}; tracing slows it): main thread busy ${ms(trace.busy)} of ${ms(trace.window)} ms`,
    );
    for (const [kind, value] of trace.byKind) log(`        ${kind.padEnd(40)} ${ms(value).padStart(5)} ms`);
    for (const { phase, functions, files } of trace.phases) {
      log(`        ${phase.name} (${ms(phase.from)}-${ms(phase.to)} ms of the traced visit):`);
      log(`          files (self ms): ${files.join(', ') || '-'}`);
      log(`          functions (self ms): ${functions.join(', ') || '-'}`);
    }
  }
}

log(
  `\n${JSON.stringify({
    screens: rows.map((r) => ({
      path: r.screen.path,
      name: r.screen.name,
      cold: r.cold && Math.round(r.cold.ms),
      warm: r.warm && Math.round(r.warm.ms),
      sessionCold: r.sessionCold && Math.round(r.sessionCold.ms),
      sessionWarm: r.sessionWarm && Math.round(r.sessionWarm.ms),
      coldCpu: r.cold && Math.round(r.cold.cpu),
      warmCpu: r.warm && Math.round(r.warm.cpu),
      sessionColdCpu: r.sessionCold && Math.round(r.sessionCold.cpu),
      sessionWarmCpu: r.sessionWarm && Math.round(r.sessionWarm.cpu),
    })),
  })}`,
);

/**
 * Diagnosis (BENCH_TRACE): each detail screen's cold visit again, first after login in a context of its own, with
 * a Chromium trace (main-thread events and V8 CPU samples). Tracing slows the page, so these visits are not in
 * the table.
 */
async function tracePass(
  b: Awaited<ReturnType<typeof launchBrowser>>,
  baseUrl: string,
  adminPassword: string,
  all: Screen[],
): Promise<Map<string, TraceSummary>> {
  fs.mkdirSync(TRACE_DIR!, { recursive: true });
  const out = new Map<string, TraceSummary>();
  const [dashboard, ...rest] = all;
  for (const screen of [dashboard!, ...rest].filter((s) => DETAIL.includes(s.name))) {
    const session = await openSession(b, baseUrl);
    const { page } = session;
    try {
      const traced = async (click: () => Promise<void>) => {
        const file = path.join(TRACE_DIR!, `${screen.name}.json`);
        await b.startTracing(page, {
          path: file,
          screenshots: false,
          categories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'v8',
            'v8.execute',
            'blink.user_timing',
            'loading',
            'disabled-by-default-v8.cpu_profiler',
          ],
        });
        const visit = await measure(session, screen, click);
        await b.stopTracing();
        out.set(screen.name, summariseTrace(file, phaseSpans(visit)));
      };
      await page.goto(`${ENTRY}#/login`);
      await page.locator('input[name="username"]').fill('admin');
      await page.locator('input[name="password"]').fill(adminPassword);
      const submit = () => page.locator('[data-testid="login-submit"]').click();
      if (screen === dashboard) await traced(submit);
      else {
        await measure(session, dashboard!, submit);
        await traced(await menuEntry(page, screen));
      }
    } finally {
      await session.context.close();
    }
  }
  return out;
}
