/**
 * The CLI's conventions as a user meets them, each case a real `node bin/akira-mm.js …` (or
 * `npm run …`) process: every command and sub-command answers --help on stdout with exit 0,
 * --version prints package.json's version, and a mistyped flag, command or sub-command gets one
 * line naming the nearest valid one, exit code 2 and no stack trace. No case starts a daemon.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli.ts';
import { runCliProcess, runProcess, type ProcessOutcome } from './run-cli.ts';

/** Every sub-command, as typed after `akira-mm`. */
const SUBCOMMAND_PATHS = ['data import', 'data bbo', 'config example', 'config check', 'keys new', 'keys import', 'keys inspect', 'signer serve', 'backtest merge', 'hedge flatten'];

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** A usage error as the CLI must print it: exactly this one line on stderr, nothing on stdout, exit 2. */
function expectOneLineUsageError(outcome: ProcessOutcome, line: string): void {
  expect(outcome.stderr).toBe(`${line}\n`);
  expect(outcome.stdout).toBe('');
  expect(outcome.code).toBe(2);
}

describe('--help as a process', () => {
  it.concurrent.each([...COMMAND_NAMES, ...SUBCOMMAND_PATHS])('akira-mm %s --help prints a usage naming the command on stdout and exits 0', async (path) => {
    const outcome = await runCliProcess([...path.split(' '), '--help']);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout.startsWith(`usage: akira-mm ${path}`)).toBe(true);
    // --help is what is being read: it has no default to state.
    expect(outcome.stdout).not.toMatch(/--help.*\(default/);
    expect(outcome.stdout).not.toContain('default required');
  });

  it.concurrent.each(['keys new', 'paper'])('akira-mm %s -h is --help', async (path) => {
    const [short, long] = await Promise.all([runCliProcess([...path.split(' '), '-h']), runCliProcess([...path.split(' '), '--help'])]);
    expect(short).toEqual(long);
  });

  it.concurrent('akira-mm --help lists every command and --version, and exits 0', async () => {
    const outcome = await runCliProcess(['--help']);
    expect(outcome.code).toBe(0);
    for (const name of COMMAND_NAMES) expect(outcome.stdout).toContain(`  akira-mm ${name} `);
    expect(outcome.stdout).toContain('--version');
  });

  it.concurrent.each([
    ['chaos', 'npm run chaos -- '],
    ['soak', 'npm run soak -- '],
    ['memory', 'npm run memory -- '],
    ['sdk-check', 'npm run sdk-check -- '],
  ])('npm run %s -- --help prints its usage and options and exits 0', async (script, usage) => {
    const outcome = await runProcess('npm', ['run', '--silent', script, '--', '--help']);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout.startsWith(`usage: ${usage}`)).toBe(true);
    expect(outcome.stdout).toContain('options:');
  });

  it.concurrent('npm start -- --help is the help of paper, what npm start runs', async () => {
    const outcome = await runProcess('npm', ['start', '--silent', '--', '--help']);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout.startsWith('usage: akira-mm paper')).toBe(true);
  });
});

describe('--version as a process', () => {
  it.concurrent.each(['--version', '-V'])('akira-mm %s prints the version in package.json and exits 0', async (flag) => {
    const outcome = await runCliProcess([flag]);
    expect(outcome).toEqual({ code: 0, stdout: `${PACKAGE_VERSION}\n`, stderr: '' });
  });
});

describe('did you mean, as a process', () => {
  it.concurrent.each([
    [['paper', '--durration', '30'], 'akira-mm paper: unknown option --durration: did you mean --duration?'],
    [['backtest', '--latancy-ms', '5'], 'akira-mm backtest: unknown option --latancy-ms: did you mean --latency-ms?'],
    [['sim', '--no-flwo'], 'akira-mm sim: unknown option --no-flwo: did you mean --no-flow?'],
    [['backtset'], 'akira-mm: unknown command backtset: did you mean backtest?'],
    [['help', 'papr'], 'akira-mm: unknown command papr: did you mean paper?'],
    [['--verison'], 'akira-mm: unknown option --verison: did you mean --version?'],
    [['data', 'improt'], 'akira-mm data: unknown sub-command improt: did you mean import?'],
    [['keys', 'inspcet'], 'akira-mm keys: unknown sub-command inspcet: did you mean inspect?'],
    [['backtest', 'merg'], 'akira-mm backtest: unknown sub-command merg: did you mean merge?'],
    [['hash', 'ordr'], 'akira-mm hash: unknown request kind ordr: did you mean order?'],
  ])('akira-mm %j answers with the nearest valid name, one line, exit 2', async (args, line) => {
    expectOneLineUsageError(await runCliProcess(args), line);
  });

  it.concurrent('a flag with no near name lists the valid ones when they are few', async () => {
    expectOneLineUsageError(await runCliProcess(['run', '--bogus']), 'akira-mm run: unknown option --bogus; allowed: --env, --env-dir, --metrics-host, --journal, --keep-journal, --state-dir, --insecure-permissions, --help');
  });

  it.concurrent('a flag with no near name among many points to --help', async () => {
    expectOneLineUsageError(await runCliProcess(['paper', '--bogus']), 'akira-mm paper: unknown option --bogus (--help lists every option)');
  });

  it.concurrent('a command with no near name points to the command list', async () => {
    expectOneLineUsageError(await runCliProcess(['frobnicate']), 'akira-mm: unknown command frobnicate (akira-mm --help lists the commands)');
  });

  it.concurrent('npm run chaos answers a mistyped flag the same way', async () => {
    expectOneLineUsageError(await runProcess('npm', ['run', '--silent', 'chaos', '--', '--runz', '3']), 'chaos: unknown option --runz: did you mean --runs?');
  });
});
