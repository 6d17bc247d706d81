import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli.ts';
import { helpText, parseFlags } from '../../src/cli/args.ts';
import { runCli } from './run-cli.ts';

/** Commands made of sub-commands, and each sub-command's own help. */
const SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  data: ['import', 'bbo'],
  config: ['example', 'check'],
  keys: ['new', 'import', 'inspect'],
  signer: ['serve'],
  backtest: ['merge'],
  hedge: ['flatten'],
  account: ['status', 'setup', 'approve', 'deposit', 'bind', 'grant-executor', 'withdraw', 'settlement'],
};

/** Each flag line of a help text: `  --name VALUE   doc (unit, default …)`. */
function flagLines(text: string): string[] {
  return text.split('\n').filter((line) => /^ {2}(-\w, )?--[a-z]/.test(line) || /^ {4,}\S.*\((.*)\)$/.test(line));
}

describe('akira-mm <command> --help', () => {
  it.each(COMMAND_NAMES)('%s --help prints its usage and every option with its default, and exits 0', async (name) => {
    const { code, stdout, stderr } = await runCli([name, '--help']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: akira-mm /);
    for (const sub of SUBCOMMANDS[name] ?? []) {
      const help = await runCli(name === 'backtest' ? [name, sub, '--help'] : [name, sub, '-h']);
      expect(help.code, `${name} ${sub}`).toBe(0);
      expect(help.stdout, `${name} ${sub}`).toMatch(new RegExp(`^usage: akira-mm ${name} ${sub}`));
      expect(help.stdout).toContain('options:');
    }
    if (SUBCOMMANDS[name] !== undefined && name !== 'backtest') return;
    expect(stdout).toContain('options:');
    const lines = stdout.split('options:\n')[1]?.split('\n\n')[0]?.split('\n').filter((line) => line.trim() !== '') ?? [];
    expect(lines.length).toBeGreaterThan(0);
    // A flag whose description wraps continues on the next line; its facts close the entry.
    const entries = lines.join('\n').split(/\n(?= {2}(?:-\w, )?--)/);
    // --help states no default: it is what is being read.
    expect(entries.at(-1)).toMatch(/^ {2}-h, --help +print this help and exit$/);
    for (const entry of entries.slice(0, -1)) expect(entry, `${name}: ${entry}`).toMatch(/\((?:[^()]*\([^()]*\))*[^()]*(default|required)[^()]*(\([^()]*\)[^()]*)*\)\s*$/);
  });

  it('states units where a flag has one: backtest latency in ms, fees in pbips, sizes in tokens', async () => {
    const { stdout } = await runCli(['backtest', '--help']);
    expect(stdout).toMatch(/--latency-ms N +order entry latency, and the same again for the answer \(ms, default 25\)/);
    expect(stdout).toMatch(/--maker-pbips N +maker fee; negative = a rebate, credited \(at least −taker-pbips; write --maker-pbips=-50\) \(pbips \(1000 = 10 bps\), default 100\)/);
    expect(stdout).toMatch(/--initial-base X +held at the start; the same value is held in quote \(base tokens, default 1\)/);
    expect(stdout).toContain('--shard K/N');
    expect(flagLines(stdout).length).toBeGreaterThan(25);
  });

  it('answers `akira-mm help <command>` like `<command> --help`, and -h like --help', async () => {
    const viaHelp = await runCli(['help', 'backtest']);
    const viaFlag = await runCli(['backtest', '--help']);
    const viaShort = await runCli(['backtest', '-h']);
    expect(viaHelp).toEqual(viaFlag);
    expect(viaShort).toEqual(viaFlag);
  });

  it('still rejects unknown flags with exit 2, naming the flag and pointing at --help', async () => {
    const { code, stderr } = await runCli(['paper', '--bogus']);
    expect(code).toBe(2);
    expect(stderr).toBe('akira-mm paper: unknown option --bogus (--help lists every option)\n');
  });

  it('prints a requirement with its condition, and one default per flag', async () => {
    const run = await runCli(['run', '--help']);
    expect(run.stdout).toMatch(/--env FILE… +a pair's env file .*\(required unless --env-dir, repeatable\)\n/);
    const record = await runCli(['record', '--help']);
    expect(record.stdout).toMatch(/--env FILE +the pair's env file: venue URLs and pair \(required unless --reference records a reference alone\)\n/);
    for (const { stdout } of [run, record]) {
      expect(stdout).not.toContain('default required');
      // One default per flag: --insecure-permissions used to state its own and get "(default off)" too.
      expect(stdout).toMatch(/--insecure-permissions +accept a pair file, key file or keystore that group or others may read, with a warning \(default off: such a file is refused, as ssh refuses an open key\)\n/);
    }
  });

  it('builds help from the option table: doc, unit, default or required, repeatable', () => {
    const text = helpText(
      {
        port: { type: 'string', value: 'N', unit: 'port', default: 8080, doc: 'where to listen' },
        env: { type: 'string', value: 'FILE', required: true, doc: 'the pair file' },
        out: { type: 'string', value: 'FILE', required: 'required unless --dry-run', doc: 'where to write' },
        fault: { type: 'string', value: 'K=V', multiple: true, doc: 'a fault' },
        quiet: { type: 'boolean', doc: 'say less' },
      },
      { usage: 'akira-mm demo', summary: 'A demo.' },
    );
    expect(text).toBe(
      [
        'usage: akira-mm demo',
        '',
        'A demo.',
        '',
        'options:',
        '  --port N      where to listen (port, default 8080)',
        '  --env FILE    the pair file (required)',
        '  --out FILE    where to write (required unless --dry-run)',
        '  --fault K=V…  a fault (default: none, repeatable)',
        '  --quiet       say less (default off)',
        '  -h, --help    print this help and exit',
        '',
      ].join('\n'),
    );
    expect(() => parseFlags(['--port', '1', '--', '--help'], { port: { type: 'string' } }, 'u')).not.toThrow();
  });
});
