/**
 * The command line of `akira-mm walkforward` beyond its flag values: which recordings go to which
 * span (`--train a b --test c`), and which `--sweep` flags are which strategy's grid. Light on
 * purpose (node's parseArgs only), so a usage error costs no engine or data layer.
 */
import { parseArgs } from 'node:util';
import type { FlagSpecs } from './args.ts';
import { UsageError } from './io.ts';

/** One `--env` and the `--sweep` flags that are its grid. */
export interface StrategyArgs {
  readonly env: string;
  readonly sweeps: readonly string[];
}

/** `args` as node's parseArgs tokens and values, against the command's own option table (so a flag's value is never taken for a file or a sweep). */
function tokensOf(args: readonly string[], options: FlagSpecs) {
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const [name, spec] of Object.entries(options)) config[name] = { type: spec.type, ...(spec.multiple === undefined ? {} : { multiple: spec.multiple }) };
  return parseArgs({ args: [...args], options: config, allowPositionals: true, strict: true, tokens: true });
}

/** The recordings of `--train`, `--test` and `--data`. */
export interface RecordingArgs {
  readonly train: readonly string[];
  readonly test: readonly string[];
  readonly data: readonly string[];
}

/**
 * The recordings of each flag, in command-line order: `--train a b --test c` gives `a` and `b` to
 * the training span (the files after a flag are its own, as `backtest --data a b` reads them).
 * @throws UsageError for a file before any of the three flags.
 */
export function recordingArgs(args: readonly string[], options: FlagSpecs): RecordingArgs {
  const files: Record<keyof RecordingArgs, string[]> = { train: [], test: [], data: [] };
  let last: keyof RecordingArgs | undefined;
  for (const token of tokensOf(args, options).tokens) {
    if (token.kind === 'option' && (token.name === 'train' || token.name === 'test' || token.name === 'data')) {
      last = token.name;
      if (token.value !== undefined) files[last].push(token.value);
    } else if (token.kind === 'option') {
      last = undefined;
    } else if (token.kind === 'positional') {
      if (last === undefined) throw new UsageError(`unexpected argument "${token.value}": recordings go after --train, --test or --data`);
      files[last].push(token.value);
    }
  }
  return files;
}

/**
 * The strategies in command-line order. One `--env`: every `--sweep` is its grid. Several: each
 * `--env` takes the `--sweep` flags given since the previous `--env` (as `backtest` gives each
 * `--env` the files before it).
 * @throws UsageError for `--sweep` flags after the last of several `--env`.
 */
export function strategyArgs(args: readonly string[], options: FlagSpecs): StrategyArgs[] {
  const { values, tokens } = tokensOf(args, options);
  const envs = (values['env'] ?? []) as string[];
  if (envs.length === 1) return [{ env: envs[0] as string, sweeps: (values['sweep'] ?? []) as string[] }];
  const groups: StrategyArgs[] = [];
  let sweeps: string[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option' || token.value === undefined) continue;
    if (token.name === 'sweep') sweeps.push(token.value);
    if (token.name === 'env') {
      groups.push({ env: token.value, sweeps });
      sweeps = [];
    }
  }
  if (sweeps.length > 0) throw new UsageError(`${sweeps.map((sweep) => `--sweep ${sweep}`).join(' ')} after the last --env: with several strategies, each --env takes the --sweep flags given before it`);
  return groups;
}

