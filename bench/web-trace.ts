// Summaries for the screen-open benchmark's diagnosis pass (bench/web.ts, BENCH_TRACE=dir): the main thread's
// time by kind of work from a Chromium trace, and the busiest functions and bundle files from a V8 CPU profile.
import fs from 'node:fs';

interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: {
    name?: string;
    data?: {
      startTime?: number;
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
      timeDeltas?: number[];
    };
  };
}

/** A span of the visit (ms from the click) whose busiest functions are wanted. */
export interface Phase {
  name: string;
  from: number;
  to: number;
}

export interface TraceSummary {
  file: string;
  /** ms from the click mark to the ready mark. */
  window: number;
  /** ms of that window the renderer's main thread was running a task. */
  busy: number;
  /** Main-thread self time by kind of work, largest first (ms). */
  byKind: [string, number][];
  /** Per phase of the visit: the functions and bundle files with the most self time (sampled). */
  phases: { phase: Phase; functions: string[]; files: string[] }[];
}

/** Trace event names (main thread) by the kind of work they are; the rest is "other". */
const KINDS: [string, RegExp][] = [
  [
    'compile (parse + compile JS)',
    /^(v8\.compile|v8\.compileModule|V8\.CompileCode|v8\.parseOnBackground|V8\.ScriptCompiler|CompileScript|v8\.produceModuleCache|v8\.produceCache)/,
  ],
  ['garbage collection', /GC|^V8\.GC/],
  [
    'style (recalc, stylesheets)',
    /^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|StyleInvalidator)/,
  ],
  ['layout', /^(Layout|UpdateLayerTree|IntersectionObserverController|ResizeObserverController)/],
  ['paint, composite', /^(Paint|PrePaint|Layerize|Commit|CompositeLayers|UpdateLayer|RasterTask|PaintImage)/],
  ['parse HTML', /^ParseHTML/],
  [
    'JavaScript',
    /^(FunctionCall|EvaluateScript|v8\.run|v8\.callFunction|v8\.evaluateModule|RunMicrotasks|TimerFire|FireAnimationFrame|EventDispatch|FireIdleCallback|XHRReadyStateChange|v8\.execute|V8\.Execute)/,
  ],
];

function kindOf(name: string): string {
  for (const [kind, pattern] of KINDS) if (pattern.test(name)) return kind;
  return 'other (task overhead, network, timers)';
}

export function summariseTrace(file: string, phases: readonly Phase[] = []): TraceSummary {
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const click = events.find((e) => e.name === 'bench-click');
  const ready = events.find((e) => e.name === 'bench-ready');
  if (!click || !ready) throw new Error(`${file}: no bench-click / bench-ready marks`);
  const pid = click.pid;
  const mains = new Set(
    events
      .filter(
        (e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain',
      )
      .map((e) => e.tid),
  );
  const from = click.ts;
  const to = ready.ts;
  const main = events
    .filter((e) => e.ph === 'X' && e.pid === pid && mains.has(e.tid) && e.dur !== undefined)
    .filter((e) => e.ts < to && e.ts + e.dur! > from)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);

  // Self time: each event's clipped duration minus its children's (events nest on one thread).
  const self = new Map<string, number>();
  const stack: { end: number; kind: string }[] = [];
  let busy = 0;
  const add = (kind: string, us: number) => self.set(kind, (self.get(kind) ?? 0) + us);
  for (const e of main) {
    const start = Math.max(e.ts, from);
    const end = Math.min(e.ts + e.dur!, to);
    while (stack.length && stack.at(-1)!.end <= e.ts) stack.pop();
    const parent = stack.at(-1);
    const kind =
      e.name === 'RunTask' || e.name.startsWith('ThreadControllerImpl')
        ? 'other (task overhead, network, timers)'
        : kindOf(e.name);
    if (parent) add(parent.kind, -(end - start));
    else busy += end - start;
    add(kind, end - start);
    stack.push({ end: e.ts + e.dur!, kind });
  }
  const byKind = [...self.entries()]
    .map(([kind, us]): [string, number] => [kind, us / 1000])
    .filter(([, value]) => value >= 0.5)
    .sort((a, b) => b[1] - a[1]);
  const samples = traceSamples(events, pid, mains);
  return {
    file,
    window: (to - from) / 1000,
    busy: busy / 1000,
    byKind,
    phases: phases.map((phase) => ({
      phase,
      ...topSelf(samples.filter((x) => x.at >= from + phase.from * 1000 && x.at < from + phase.to * 1000)),
    })),
  };
}

interface Sample {
  /** Trace clock, µs. */
  at: number;
  us: number;
  node: ProfileNode;
}

/** The main thread's CPU samples from the trace (category disabled-by-default-v8.cpu_profiler). */
function traceSamples(events: TraceEvent[], pid: number, mains: Set<number>): Sample[] {
  const out: Sample[] = [];
  const profiles = events.filter((e) => e.name === 'Profile' && e.pid === pid && mains.has(e.tid));
  for (const profile of profiles) {
    const nodes = new Map<number, ProfileNode>();
    let at = profile.args?.data?.startTime ?? 0;
    const chunks = events.filter((e) => e.name === 'ProfileChunk' && e.pid === pid && e.id === profile.id);
    let previous: { at: number; node: ProfileNode } | null = null;
    for (const chunk of chunks) {
      for (const node of chunk.args?.data?.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
      const ids = chunk.args?.data?.cpuProfile?.samples ?? [];
      const deltas = chunk.args?.data?.timeDeltas ?? [];
      for (let i = 0; i < ids.length; i += 1) {
        at += deltas[i] ?? 0;
        if (previous) out.push({ at: previous.at, us: at - previous.at, node: previous.node });
        const node = nodes.get(ids[i]!);
        previous = node ? { at, node } : null;
      }
    }
  }
  return out;
}

function topSelf(samples: Sample[], top = 8): { functions: string[]; files: string[] } {
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const { node, us } of samples) {
    const { functionName, url } = node.callFrame;
    if (['(idle)', '(program)', '(root)'].includes(functionName)) continue;
    const fileName = url ? url.replace(/^.*\//, '').replace(/\?.*$/, '') : functionName || '(native)';
    const label = `${functionName || '(anonymous)'} ${fileName}`;
    byFunction.set(label, (byFunction.get(label) ?? 0) + us);
    byFile.set(fileName, (byFile.get(fileName) ?? 0) + us);
  }
  const format = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .filter(([, us]) => us >= 1000)
      .map(([label, us]) => `${label} ${(us / 1000).toFixed(0)}`);
  return { functions: format(byFunction), files: format(byFile) };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
