import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEY_LIST, ENGINE_KEY_LIST, HEDGE_KEY_LIST, REFERENCE_KEY_LIST } from '../../src/config/index.ts';
import { STRATEGIES } from '../../strategies/index.ts';
import { runCli } from './run-cli.ts';

const SECRET = '0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc';

function envFile(lines: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'akira-cli-config-')), 'pair.env');
  writeFileSync(file, lines.join('\n'));
  return file;
}

describe('akira-mm config', () => {
  it('config/example.env is exactly what `config example` prints, so it documents every key', async () => {
    const { code, stdout } = await runCli(['config', 'example']);
    expect(code).toBe(0);
    expect(readFileSync(new URL('../../config/example.env', import.meta.url), 'utf8')).toBe(stdout);
    const keys = [...CONFIG_KEY_LIST, ...ENGINE_KEY_LIST, ...REFERENCE_KEY_LIST, ...HEDGE_KEY_LIST, ...Object.values(STRATEGIES).flatMap((d) => d.keys)].map((k) => k.key);
    for (const key of keys) expect(stdout).toMatch(new RegExp(`^(# )?${key}=`, 'm'));
  });

  it('documents every declared key in `config example` with its meaning, unit and default', async () => {
    const { stdout } = await runCli(['config', 'example']);
    const lines = stdout.split('\n');
    const specs = [...CONFIG_KEY_LIST, ...ENGINE_KEY_LIST, ...REFERENCE_KEY_LIST, ...HEDGE_KEY_LIST, ...Object.values(STRATEGIES).flatMap((d) => d.keys)];
    for (const spec of specs) {
      const optional = 'optional' in spec && spec.optional === true;
      const line = optional ? `# ${spec.key}=` : spec.default === undefined ? `${spec.key}=` : `# ${spec.key}=${spec.default}`;
      const at = lines.indexOf(line);
      expect(at, `${spec.key} with its default`).toBeGreaterThan(0);
      expect(lines[at - 1], `${spec.key}'s meaning and unit`).toBe(`# ${spec.doc} [${spec.unit}]`);
    }
  });

  it('validates the shipped pair files', async () => {
    // config/thin: each strategy as frozen for the held-out day on a thin book (docs/strategies.md).
    for (const pair of ['ETH-USDC', 'STRK-USDC', 'thin/ladder', 'thin/avellaneda-stoikov', 'thin/glft', 'thin/tick-grid']) {
      const { code, stdout, stderr } = await runCli(['config', 'check', '--env', `config/${pair}.env`]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain('valid');
    }
  });

  it('prints every bad key at once, strategy keys included, and never the private key', async () => {
    const file = envFile([
      'TRADING_ACCOUNT=0x1234',
      `SIGNER_PRIVATE_KEY=${SECRET}zz`,
      'BASE=ETH',
      'QUOTE=USDC',
      'STRATEGY=ladder',
      'LADDER_LEVELS=many',
      'GAS_PRICE_MULTIPLIER=0.5',
    ]);
    const { code, stderr } = await runCli(['config', 'check', '--env', file]);
    expect(code).toBe(2);
    expect(stderr).toContain('LADDER_LEVELS="many"');
    expect(stderr).toContain('GAS_PRICE_MULTIPLIER="0.5"');
    expect(stderr).toContain('SIGNER_PRIVATE_KEY=<redacted>');
    expect(stderr).not.toContain(SECRET.slice(2));
  });
});
