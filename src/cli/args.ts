/**
 * Flag parsing for CLI commands on node:util `parseArgs`, with errors that say what is wrong, and
 * `--help` built from the same option table: each flag carries its doc, unit and default, so the
 * help a user reads cannot drift from the flags the command accepts.
 *
 * A command adopts it in one step: give each option a `doc` (and `unit`, `default`, `value` where
 * they apply) and call `parseFlags(args, OPTIONS, HELP)`. `--help`/`-h` anywhere before `--` then
 * throws a {@link HelpRequest} that `src/cli.ts` prints on stdout with exit code 0.
 */
import { parseArgs } from 'node:util';
import { HelpRequest, UsageError } from './io.ts';

/** One flag: what node's parseArgs needs, plus what `--help` prints about it. */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
  /** Placeholder for the value in help (`FILE`, `N`, `HOST`); `VALUE` when absent. */
  readonly value?: string;
  /** What the flag does, one line. */
  readonly doc?: string;
  /** Unit of the value (`ms`, `s`, `pbips`, `base tokens`), printed beside the default. */
  readonly unit?: string;
  /** The default as help shows it; the command applies its own default (parseArgs does not). */
  readonly default?: string | number;
  /** Printed as "required" instead of a default. */
  readonly required?: boolean;
}

/** A command's flags by long name. */
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** What `--help` prints around the flag table. */
export interface CommandHelp {
  /** `akira-mm backtest --data FILE… --env FILE [options]`. */
  readonly usage: string;
  /** One or two sentences: what the command does. */
  readonly summary?: string;
  /** Extra paragraphs printed after the flags (positionals, examples). */
  readonly notes?: readonly string[];
}

/** Parsed flags and positionals. */
export interface ParsedArgs<T extends FlagSpecs> {
  readonly values: { [K in keyof T]?: T[K] extends { type: 'boolean' } ? boolean : T[K] extends { multiple: true } ? string[] : string };
  readonly positionals: string[];
}

const HELP_FLAG: FlagSpec = { type: 'boolean', short: 'h', doc: 'print this help and exit' };

/** True when `args` ask for help: `--help` or `-h` before a `--` terminator. */
export function wantsHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

function flagLabel(name: string, spec: FlagSpec): string {
  const short = spec.short === undefined ? '' : `-${spec.short}, `;
  const value = spec.type === 'boolean' ? '' : ` ${spec.value ?? 'VALUE'}${spec.multiple === true ? '…' : ''}`;
  return `${short}--${name}${value}`;
}

function flagFacts(spec: FlagSpec): string {
  const facts: string[] = [];
  if (spec.unit !== undefined) facts.push(spec.unit);
  if (spec.required === true) facts.push('required');
  else if (spec.default !== undefined) facts.push(`default ${spec.default}`);
  else facts.push(spec.type === 'boolean' ? 'default off' : 'default: none');
  if (spec.multiple === true) facts.push('repeatable');
  return `(${facts.join(', ')})`;
}

/** The help text of a command: usage, summary, one line per flag with its unit and default. */
export function helpText(options: FlagSpecs, help: CommandHelp | string): string {
  const { usage, summary, notes } = typeof help === 'string' ? { usage: help, summary: undefined, notes: undefined } : help;
  const entries = Object.entries({ ...options, help: HELP_FLAG });
  const labels = entries.map(([name, spec]) => flagLabel(name, spec));
  const width = Math.min(34, Math.max(...labels.map((label) => label.length)));
  const lines = entries.map(([, spec], i) => {
    const label = labels[i] as string;
    const text = [spec.doc, flagFacts(spec)].filter((part) => part !== undefined).join(' ');
    return label.length > width ? `  ${label}\n  ${' '.repeat(width)}  ${text}` : `  ${label.padEnd(width)}  ${text}`;
  });
  return [`usage: ${usage}`, ...(summary === undefined ? [] : ['', summary]), '', 'options:', ...lines, ...(notes ?? []).flatMap((note) => ['', note]), ''].join('\n');
}

/**
 * Parses `args` against `options`. `--help`/`-h` throws a {@link HelpRequest} carrying the help
 * text (printed by the entry point, exit 0); unknown flags and missing values become a
 * {@link UsageError} that names the flag and shows how to call the command.
 */
export function parseFlags<T extends FlagSpecs>(args: readonly string[], options: T, help: CommandHelp | string): ParsedArgs<T> {
  if (wantsHelp(args)) throw new HelpRequest(helpText(options, help));
  // parseArgs gets only its own fields: its `default` would fill values the command defaults itself.
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [name, spec] of Object.entries(options)) {
    config[name] = { type: spec.type, ...(spec.multiple === undefined ? {} : { multiple: spec.multiple }), ...(spec.short === undefined ? {} : { short: spec.short }) };
  }
  try {
    const parsed = parseArgs({ args: [...args], options: config, allowPositionals: true, strict: true });
    return parsed as unknown as ParsedArgs<T>;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${message}\nusage: ${typeof help === 'string' ? help : help.usage} (--help lists every option)`);
  }
}

/** One sub-command of a command with several (`data import`, `data bbo`). */
export interface SubcommandHelp {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
}

/** Help of a command made of sub-commands: each one's usage and what it does. */
export function subcommandsHelp(command: string, subcommands: readonly SubcommandHelp[]): string {
  const lines = subcommands.flatMap((sub) => [`  ${sub.usage}`, `      ${sub.summary}`]);
  return [`usage: akira-mm ${command} <${subcommands.map((sub) => sub.name).join('|')}> …`, '', 'sub-commands:', ...lines, '', `\`akira-mm ${command} <sub-command> --help\` lists its options.`, ''].join('\n');
}

/** Reads an integer flag, with an error naming the flag and the allowed range. */
export function integerFlag(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name}=${value} is not an integer (allowed ${min}..${max})`);
  const parsed = Number(value);
  if (parsed < min || parsed > max) throw new UsageError(`--${name}=${value} is out of range (allowed ${min}..${max})`);
  return parsed;
}
