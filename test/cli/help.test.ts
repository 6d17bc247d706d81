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
    for (const entry of entries) expect(entry, `${name}: ${entry}`).toMatch(/\((?:[^()]*\([^()]*\))*[^()]*(default|required)[^()]*(\([^()]*\)[^()]*)*\)\s*$/);
  });

  it('states units where a flag has one: backtest latency in ms, fees in pbips, sizes in tokens', async () => {
    const { stdout } = await runCli(['backtest', '--help']);
    expect(stdout).toMatch(/--latency-ms N +order entry latency, and the same again for the answer \(ms, default 25\)/);
    expect(stdout).toMatch(/--maker-pbips N +maker fee \(pbips \(1000 = 10 bps\), default 100\)/);
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

  it('still rejects unknown flags with exit 2 and points at --help', async () => {
    const { code, stderr } = await runCli(['run', '--bogus']);
    expect(code).toBe(2);
    expect(stderr).toContain("Unknown option '--bogus'");
    expect(stderr).toContain('--help lists every option');
  });

  it('builds help from the option table: doc, unit, default or required, repeatable', () => {
    const text = helpText(
      {
        port: { type: 'string', value: 'N', unit: 'port', default: 8080, doc: 'where to listen' },
        env: { type: 'string', value: 'FILE', required: true, doc: 'the pair file' },
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
        '  --fault K=V…  a fault (default: none, repeatable)',
        '  --quiet       say less (default off)',
        '  -h, --help    print this help and exit (default off)',
        '',
      ].join('\n'),
    );
    expect(() => parseFlags(['--port', '1', '--', '--help'], { port: { type: 'string' } }, 'u')).not.toThrow();
  });
});
