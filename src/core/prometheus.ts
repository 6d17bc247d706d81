/**
 * The Prometheus conventions every layer's metrics follow (prom-client), so dashboards and alert
 * rules can rely on them: a count since start is a counter named `_total`, never a gauge; every
 * label set a series is known to take exists at 0 from the first scrape (`increase()` and
 * `rate()` miss the first event of a series that appears with it); a wrong name is kept one
 * release as a deprecated alias whose HELP names its replacement.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** One label set of a followed count and its value now. */
export interface FollowedCount {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** What a following counter is built from. */
export interface FollowingCounterOptions {
  readonly name: string;
  readonly help: string;
  readonly registry: Registry;
  readonly labelNames?: readonly string[];
  /** The count now: a number (no labels), or one value per label set (each reported from the first scrape, at 0 if 0). */
  read(): number | readonly FollowedCount[];
}

/**
 * A counter that follows a count kept elsewhere (a venue's, a feed's, the scorecard's): at each
 * scrape it adds what the count grew since the last one, so it is a true counter read at no cost
 * between scrapes. A count that went down (its owner was rebuilt) adds its new value, as a
 * counter reset would. `name` must end in `_total`.
 */
export function registerFollowingCounter(options: FollowingCounterOptions): Counter {
  const reported = new Map<string, number>();
  return new Counter({
    name: options.name,
    help: options.help,
    labelNames: [...(options.labelNames ?? [])],
    registers: [options.registry],
    collect() {
      const now = options.read();
      for (const { labels, value } of typeof now === 'number' ? [{ labels: {}, value: now }] : now) {
        const key = JSON.stringify(labels);
        const before = reported.get(key) ?? 0;
        this.inc(labels, value >= before ? value - before : value);
        reported.set(key, value);
      }
    },
  });
}

/**
 * Every combination of `values` (label name → the values it takes), to start labelled series at 0:
 * `labelSets({ side: ['buy', 'sell'], liquidity: ['maker', 'taker'] })` gives four label sets.
 */
export function labelSets(values: Readonly<Record<string, readonly string[]>>): Record<string, string>[] {
  return Object.entries(values).reduce<Record<string, string>[]>((sets, [name, options]) => sets.flatMap((set) => options.map((value) => ({ ...set, [name]: value }))), [{}]);
}

/** Starts each label set of `values` at 0 on a counter (so the series exist before the first event). */
export function startAtZero(counter: Counter, values: Readonly<Record<string, readonly string[]>>): void {
  for (const labels of labelSets(values)) counter.inc(labels, 0);
}

/**
 * A gauge read at scrape time: `read` gives its value now, or undefined when there is none (the
 * series then disappears rather than keeping a stale value).
 */
export function registerReadingGauge(registry: Registry, name: string, help: string, read: () => number | undefined): Gauge {
  return new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read();
      if (value === undefined) this.reset();
      else this.set(value);
    },
  });
}

/** The HELP of a deprecated alias: what to use instead, then what it was. */
export function deprecatedHelp(replacement: string, help: string): string {
  return `deprecated: use ${replacement} (this name goes in the next release). ${help}`;
}

/** What a deprecated gauge is built from. */
export interface DeprecatedGaugeOptions {
  /** The old, wrong name. */
  readonly name: string;
  /** The name to use instead (with its labels, if they differ). */
  readonly replacement: string;
  readonly help: string;
  readonly registry: Registry;
  readonly labelNames?: readonly string[];
  /** The value now (no labels), one value per label set, or undefined for no sample. */
  read(): number | readonly FollowedCount[] | undefined;
}

/** A gauge kept under an old name one release, with the value it always had and a HELP naming its replacement. */
export function registerDeprecatedGauge(options: DeprecatedGaugeOptions): Gauge {
  return new Gauge({
    name: options.name,
    help: deprecatedHelp(options.replacement, options.help),
    labelNames: [...(options.labelNames ?? [])],
    registers: [options.registry],
    collect() {
      const now = options.read();
      if (now === undefined) return;
      if (typeof now === 'number') this.set(now);
      else for (const { labels, value } of now) this.set(labels, value);
    },
  });
}
