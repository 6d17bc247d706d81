/**
 * The dashboard's numbers are read from the daemon's Prometheus registries, the same metric
 * objects `/metrics` renders, so every figure it shows is one series of `/metrics` at the moment
 * of the sample (ARCHITECTURE.md: "served by the metrics server from the same state the metrics
 * read"). A series is named by its Prometheus selector, `name{label="value",…}`, labels sorted.
 */
import type { Registry } from 'prom-client';

/** Labels of one series. */
export type Labels = Readonly<Record<string, string>>;

/** One series' value at a sample. */
export interface SeriesValue {
  readonly name: string;
  readonly labels: Labels;
  readonly value: number;
}

/** Escapes a label value as the Prometheus text format does (backslash, double quote, newline). */
function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/** `name{a="x",b="y"}` (labels sorted by name; `name` alone without labels): one series' selector. */
export function seriesKey(name: string, labels: Labels): string {
  const names = Object.keys(labels).sort();
  if (names.length === 0) return name;
  return `${name}{${names.map((label) => `${label}="${escapeLabelValue(labels[label] as string)}"`).join(',')}}`;
}

/**
 * Every series of the metrics `names` in `registry` now, keyed by selector, with `labels` (the
 * registry's default labels, which `/metrics` adds to each line) added. A name the registry does
 * not hold is skipped (a pair without a hedger has no hedge metrics), and so is a value that is
 * not finite (JSON cannot carry it).
 */
export async function readSeries(registry: Registry, names: readonly string[], labels: Labels): Promise<Map<string, SeriesValue>> {
  // Every metric's collect() runs inside get() before its first await, so starting them all in
  // one synchronous pass reads the engine at one moment.
  const reads = names.flatMap((name) => {
    const metric = registry.getSingleMetric(name);
    return metric === undefined ? [] : [metric.get()];
  });
  const found = new Map<string, SeriesValue>();
  for (const metric of await Promise.all(reads)) {
    for (const value of metric.values) {
      if (!Number.isFinite(value.value)) continue;
      const own = Object.fromEntries(Object.entries(value.labels).map(([label, text]) => [label, String(text)]));
      const all = { ...labels, ...own };
      found.set(seriesKey(metric.name, all), { name: metric.name, labels: all, value: value.value });
    }
  }
  return found;
}
