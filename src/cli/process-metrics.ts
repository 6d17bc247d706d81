/**
 * The daemon process in `/metrics`, once per process and without a `pair` label (it is one
 * process whatever the pairs): prom-client's default metrics under their standard names
 * (`process_*`: CPU, resident memory, open files, start time; `nodejs_*`: heap, external memory,
 * GC, handles, event-loop lag and its percentiles), which the usual Node.js dashboards read, and
 * `akira_mm_build_info`. All are read when scraped, except the event-loop delay histogram Node
 * keeps itself (perf_hooks) and GC timings.
 *
 * The `akira_mm_process_*_bytes` gauges of earlier releases stay one more release as deprecated
 * aliases on the account's registry, labelled as before.
 */
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { registerDeprecatedGauge } from '../core/prometheus.ts';
import { packageVersion } from './version.ts';

/** Env key naming the commit the image was built from (`docker build --build-arg AKIRA_MM_COMMIT=…`); unset: no `commit` label. */
export const COMMIT_ENV_KEY = 'AKIRA_MM_COMMIT';

/** What `akira_mm_build_info` says. */
export interface BuildInfo {
  readonly version: string;
  readonly node: string;
  readonly commit?: string;
}

/** This build: package.json's version, the running Node, and the commit when the environment names one. */
export function buildInfo(env: Readonly<Record<string, string | undefined>>): BuildInfo {
  const commit = env[COMMIT_ENV_KEY]?.trim();
  return { version: packageVersion(), node: process.version, ...(commit === undefined || commit === '' ? {} : { commit }) };
}

/**
 * A registry of the process's own metrics (no default labels): prom-client's defaults, the
 * event-loop lag among them, and `akira_mm_build_info{version,node,commit}` at 1.
 */
export function createProcessRegistry(build: BuildInfo): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labels: Record<string, string> = { version: build.version, node: build.node, ...(build.commit === undefined ? {} : { commit: build.commit }) };
  new Gauge({
    name: 'akira_mm_build_info',
    help: 'This build: akira-mm version, Node version and (when the image was built with AKIRA_MM_COMMIT) the commit; always 1',
    labelNames: Object.keys(labels),
    registers: [registry],
  }).set(labels, 1);
  return registry;
}

/** The deprecated `akira_mm_process_*_bytes` gauges, on the registry they always were on (the account's). */
export function registerDeprecatedProcessMetrics(registry: Registry): void {
  const aliases: readonly [string, string, string, (usage: NodeJS.MemoryUsage) => number][] = [
    ['akira_mm_process_resident_memory_bytes', 'process_resident_memory_bytes', 'Resident set size of the daemon process', (usage) => usage.rss],
    ['akira_mm_process_heap_used_bytes', 'nodejs_heap_size_used_bytes', 'V8 heap in use (JavaScript objects)', (usage) => usage.heapUsed],
    ['akira_mm_process_heap_total_bytes', 'nodejs_heap_size_total_bytes', 'V8 heap reserved', (usage) => usage.heapTotal],
    ['akira_mm_process_external_memory_bytes', 'nodejs_external_memory_bytes', 'Memory V8 tracks outside its heap: WebAssembly memories (the curve tables), buffers', (usage) => usage.external],
  ];
  for (const [name, replacement, help, read] of aliases) registerDeprecatedGauge({ name, replacement, help, registry, read: () => read(process.memoryUsage()) });
}
