import { join } from 'node:path';
import { Readable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import type { CliIo } from '../../src/cli/io.ts';
import { startProgress } from '../../src/cli/progress.ts';
import { importRecording } from '../../src/backtest/data/importers/index.ts';
import { depthLine, tempDir, writeLines } from '../backtest/data/fixtures.ts';

/** An io whose stderr claims to be a terminal (as process.stderr does on one), capturing both streams. */
function terminalIo(): { io: CliIo; out: () => string; err: () => string } {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: Object.assign({ write: (text: string) => ((stderr += text), true) }, { isTTY: true, columns: 120 }),
    stdin: Readable.from(['']),
    env: {},
    cwd: process.cwd(),
  };
  return { io, out: () => stdout, err: () => stderr };
}

describe('the progress bar', () => {
  it('shows the units done of the total, the time spent and an ETA once some work is done, on a terminal', () => {
    const terminal = terminalIo();
    const progress = startProgress(terminal.io, 'sweep', 'cells', { total: 4 });
    expect(terminal.err()).toContain('sweep [');
    expect(terminal.err()).toContain('0/4 cells | 0s spent, ETA …');
    progress?.update(1, 4);
    progress?.stop();
    expect(terminal.err()).toMatch(/1\/4 cells \| \d+s spent, ETA \d+s/);
  });

  it('shows nothing off a terminal or with --no-progress', () => {
    const terminal = terminalIo();
    expect(startProgress(terminal.io, 'replay', 'records', { enabled: false })).toBeUndefined();
    const piped = { ...terminal.io, stderr: { write: terminal.io.stderr.write } };
    expect(startProgress(piped, 'replay', 'records')).toBeUndefined();
    expect(terminal.err()).toBe('');
  });

  describe('of a backtest', () => {
    const dir = tempDir('progress');
    const recording = join(dir, 'tiny.data');
    const env = join(dir, 'tiny.env');
    const T0 = 1_700_000_000_000_000_000n;

    beforeAll(async () => {
      const lines = [`${T0} ${JSON.stringify({ lastUpdateId: 10, bids: [['100.00000000', '5.00000000']], asks: [['100.01000000', '3.00000000']] })}`];
      for (let i = 0; i < 50; i++) lines.push(depthLine(T0 + BigInt(i + 1) * 1_000_000_000n, 11 + i, 11 + i, [['100.00000000', `${5 + (i % 3)}.00000000`]], [], 1_700_000_000_000 + (i + 1) * 1_000));
      await importRecording('binance', [writeLines(dir, 'ethusdt.txt', lines)], recording, () => undefined);
      writeFileSync(env, ['STRATEGY=ladder', 'LADDER_ORDER_SIZE=0.1'].join('\n'));
    });

    it('draws the replay on a terminal, and --no-progress keeps stderr clean', async () => {
      const shown = terminalIo();
      expect(await main(['backtest', '--data', recording, '--env', env], shown.io)).toBe(0);
      expect(shown.err()).toMatch(/replay \[.*records \| \d+s spent, ETA/);
      const quiet = terminalIo();
      expect(await main(['backtest', '--data', recording, '--env', env, '--no-progress'], quiet.io)).toBe(0);
      expect(quiet.err()).toBe('');
      expect(quiet.out()).toContain('fills');
    });
  });
});
