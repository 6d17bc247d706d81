/**
 * The benchmark contract: each `bench/**\/*.bench.ts` exports `benches`, a list of suites; each
 * suite yields results in the line format users' scripts parse:
 * `{"bench": NAME, "value": NUMBER, "unit": STRING, "baseline": NUMBER|null}`.
 */

/** One measured figure. `baseline` is the comparison figure from the same run, or null. */
export interface BenchResult {
  readonly bench: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline: number | null;
}

/** How the runner was asked to run the suites. */
export interface BenchContext {
  /**
   * `--quick`: tiny counts and durations, so a run checks that every suite still works and prints
   * its lines (what `npm test` does) without measuring anything worth quoting.
   */
  readonly quick: boolean;
  /** `full` in a measuring run, `quick` under `--quick`. */
  pick<T>(full: T, quick: T): T;
}

/** A named group of measurements that run together (they may share setup). */
export interface BenchSuite {
  readonly name: string;
  run(context: BenchContext): Promise<BenchResult[]>;
}

/** The context for a measuring run (`quick` false) or a `--quick` one. */
export function benchContext(quick: boolean): BenchContext {
  return { quick, pick: (full, short) => (quick ? short : full) };
}

/**
 * Runs `body` repeatedly for about `durationMs` after a warm-up and returns operations per second.
 * `body` performs `opsPerCall` operations per call. At least one call is measured, so a duration
 * shorter than one call (a quick run) still gives a rate.
 */
export async function measureRate(
  body: () => unknown | Promise<unknown>,
  options: { durationMs: number; warmupMs?: number; opsPerCall?: number },
): Promise<number> {
  const opsPerCall = options.opsPerCall ?? 1;
  const warmupEnd = performance.now() + (options.warmupMs ?? Math.min(500, options.durationMs / 4));
  while (performance.now() < warmupEnd) await body();
  let calls = 0;
  const start = performance.now();
  const end = start + options.durationMs;
  do {
    await body();
    calls++;
  } while (performance.now() < end);
  const elapsedSeconds = (performance.now() - start) / 1000;
  return (calls * opsPerCall) / elapsedSeconds;
}

/** Rounds a figure to 3 significant digits for display and JSON. */
export function round3(value: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(value))));
  return Number(value.toFixed(Math.min(digits, 6)));
}

/** p-th percentile (0..100) of samples, by nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}
