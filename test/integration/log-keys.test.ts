/**
 * The daemon's real log lines repeat no key: `akira-mm paper` runs as a process (every logger
 * built as the daemon builds it: engine, exchange, hedger, sim, account) at the most verbose
 * level, and every JSON line of its stderr is read with a parser that keeps every member.
 */
import { describe, expect, it } from 'vitest';
import { runCliProcess } from '../cli/run-cli.ts';
import { duplicateKeys } from '../core/duplicate-keys.ts';

/** The JSON log lines of a finished paper run, each checked for repeated keys. */
async function paperLogLines(args: readonly string[]): Promise<Record<string, unknown>[]> {
  const outcome = await runCliProcess(['paper', '--duration', '3', '--log-level', 'trace', ...args]);
  expect(outcome.code, outcome.stderr).toBe(0);
  const lines = outcome.stderr.split('\n').filter((line) => line.startsWith('{'));
  for (const line of lines) expect(duplicateKeys(line), line).toEqual([]);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('log lines of a paper run', () => {
  it.concurrent('hedged and priced from a reference: no line of the engine, exchange, hedger or sim repeats a key', async () => {
    const lines = await paperLogLines(['--hedge', '--reference']);
    const components = new Set(lines.map((line) => line['component']));
    for (const component of ['exchange', 'hedge', 'sim']) expect(components, component).toContain(component);
    // The engine's lines carry the pair its daemon bound, and no component.
    expect(lines.some((line) => line['msg'] === 'engine started' && line['pair'] === 'ETH/USDC' && line['component'] === undefined)).toBe(true);
    // The exchange's lines carry the pair the daemon bound and the venue bound again: once.
    expect(lines.some((line) => line['component'] === 'exchange' && line['pair'] === 'ETH/USDC')).toBe(true);
  }, 60_000);

  it.concurrent('two pairs on one account: no line of the account, its pairs or their exchange repeats a key', async () => {
    const lines = await paperLogLines(['--pairs', 'ETH/USDC,STRK/USDC']);
    const components = new Set(lines.map((line) => line['component']));
    for (const component of ['account', 'exchange']) expect(components, component).toContain(component);
    for (const pair of ['ETH/USDC', 'STRK/USDC']) expect(lines.some((line) => line['msg'] === 'engine started' && line['pair'] === pair)).toBe(true);
  }, 60_000);
});
