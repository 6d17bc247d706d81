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
import { HelpRequest, UnknownNameError, UsageError } from './io.ts';

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
  /** Printed as "required" instead of a default; a text says when (`required unless --env-dir`). */
  readonly required?: true | string;
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
  if (typeof spec.required === 'string') facts.push(spec.required);
  else if (spec.required === true) facts.push('required');
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
    // --help has no default to state: it is what is being read.
    const text = [spec.doc, spec === HELP_FLAG ? undefined : flagFacts(spec)].filter((part) => part !== undefined).join(' ');
    return label.length > width ? `  ${label}\n  ${' '.repeat(width)}  ${text}` : `  ${label.padEnd(width)}  ${text}`;
  });
  return [`usage: ${usage}`, ...(summary === undefined ? [] : ['', summary]), '', 'options:', ...lines, ...(notes ?? []).flatMap((note) => ['', note]), ''].join('\n');
}

/**
 * Parses `args` against `options`. `--help`/`-h` throws a {@link HelpRequest} carrying the help
 * text (printed by the entry point, exit 0); an unknown flag becomes an {@link UnknownNameError}
 * (answered with the nearest valid flag), a missing or extra value a {@link UsageError} that names
 * the flag and shows how to call the command.
 */
export function parseFlags<T extends FlagSpecs>(args: readonly string[], options: T, help: CommandHelp | string): ParsedArgs<T> {
  if (wantsHelp(args)) throw new HelpRequest(helpText(options, help));
  // parseArgs gets only its own fields: its `default` would fill values the command defaults itself.
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [name, spec] of Object.entries(options)) {
    config[name] = { type: spec.type, ...(spec.multiple === undefined ? {} : { multiple: spec.multiple }), ...(spec.short === undefined ? {} : { short: spec.short }) };
  }
  const usage = typeof help === 'string' ? help : help.usage;
  // Unknown flags are found on parseArgs' own tokens, not in its error text.
  const { tokens } = parseArgs({ args: [...args], options: config, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind === 'option' && !Object.hasOwn(options, token.name)) throw new UnknownNameError('option', token.rawName, flagNames(options), '--help lists every option');
  }
  try {
    const parsed = parseArgs({ args: [...args], options: config, allowPositionals: true, strict: true });
    return parsed as unknown as ParsedArgs<T>;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${message}\nusage: ${usage} (--help lists every option)`);
  }
}

/** Every flag by its long name, as typed: what an unknown flag is matched against and listed with. */
function flagNames(options: FlagSpecs): string[] {
  return [...Object.keys(options), 'help'].map((name) => `--${name}`);
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

/**
 * The sub-command `args` name, and the arguments after it. No sub-command is a usage error showing
 * them all; `--help`, `-h` or `help` their help (exit 0); a mistyped one an
 * {@link UnknownNameError} naming the nearest.
 */
export function selectSubcommand<S extends SubcommandHelp>(command: string, args: readonly string[], subcommands: readonly S[]): { readonly subcommand: S; readonly rest: readonly string[] } {
  const [name, ...rest] = args;
  const help = subcommandsHelp(command, subcommands);
  if (name === '--help' || name === '-h' || name === 'help') throw new HelpRequest(help);
  if (name === undefined) throw new UsageError(`a sub-command is required\n${help}`);
  const subcommand = subcommands.find((candidate) => candidate.name === name);
  if (subcommand === undefined) {
    throw new UnknownNameError(name.startsWith('-') ? 'option' : 'sub-command', name, subcommands.map((sub) => sub.name), `akira-mm ${command} --help lists them`);
  }
  return { subcommand, rest };
}

/** Reads an integer flag, with an error naming the flag and the allowed range. */
export function integerFlag(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name}=${value} is not an integer (allowed ${min}..${max})`);
  const parsed = Number(value);
  if (parsed < min || parsed > max) throw new UsageError(`--${name}=${value} is out of range (allowed ${min}..${max})`);
  return parsed;
}
