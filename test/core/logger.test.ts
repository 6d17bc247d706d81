/**
 * No log line repeats a key, however loggers are nested and whatever a call logs: each line is
 * read with a parser that keeps every member (JSON.parse would silently keep the last duplicate).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../src/core/index.ts';
import { duplicateKeys } from './duplicate-keys.ts';

function capture(base?: Record<string, unknown>): { readonly logger: Logger; readonly lines: string[] } {
  const lines: string[] = [];
  // pino writes one whole line per write to a destination of its own kind.
  const logger = createLogger({ level: 'trace', destination: { write: (line: string) => lines.push(line) }, ...(base === undefined ? {} : { base }) });
  return { logger, lines };
}

function parsedLines(lines: readonly string[]): Record<string, unknown>[] {
  for (const line of lines) expect(duplicateKeys(line), line).toEqual([]);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('duplicateKeys', () => {
  it('finds the repeated keys of every object, which JSON.parse hides', () => {
    const text = '{"pair":"ETH/USDC","component":"exchange","pair":"ETH/USDC","err":{"type":"E","type":"F"}}';
    expect(JSON.parse(text)).toEqual({ pair: 'ETH/USDC', component: 'exchange', err: { type: 'F' } });
    expect(duplicateKeys(text)).toEqual(['pair', 'err.type']);
    expect(duplicateKeys('{"a":[{"x":1,"x":1}],"b":{"x":1}}')).toEqual(['a.x']);
    expect(duplicateKeys('{"pair":"ETH/USDC","component":"exchange"}')).toEqual([]);
    expect(() => duplicateKeys('{"pair":')).toThrow();
  });
});

describe('createLogger: no line repeats a key', () => {
  it('a child binding a key its parent bound writes it once, with the child\'s value, in its first place', () => {
    const { logger, lines } = capture({ pair: 'ETH/USDC' });
    // The daemon binds the pair; the venue it builds binds its component, then the pair again.
    const venue = logger.child({ component: 'exchange' }).child({ pair: 'ETH/USDC', book: 'ETH/USDC' });
    venue.info('live venue started');
    logger.child({ component: 'hedge', market: 'binance:ETHUSDT' }).child({ component: 'hedge-book', market: 'binance:ETHUSDT' }).warn('book stale');
    expect(lines[0]).toMatch(/^\{"level":30,"time":\d+,"pair":"ETH\/USDC","component":"exchange","book":"ETH\/USDC","msg":"live venue started"\}\n$/);
    expect(parsedLines(lines)[1]).toMatchObject({ pair: 'ETH/USDC', component: 'hedge-book', market: 'binance:ETHUSDT' });
  });

  it('a logged key that the logger binds is written once, with the logged value', () => {
    const { logger, lines } = capture({ pair: 'ETH/USDC' });
    const child = logger.child({ component: 'engine' });
    child.info({ pair: 'ETH/USDC', strategy: 'ladder' }, 'engine started');
    child.info({ component: 'risk', limit: 1 }, 'limit');
    child.info({ strategy: 'ladder' }, 'unrelated keys pass as they are');
    const [started, risk, plain] = parsedLines(lines);
    expect(started).toMatchObject({ pair: 'ETH/USDC', component: 'engine', strategy: 'ladder', msg: 'engine started' });
    expect(risk).toMatchObject({ component: 'risk', limit: 1 });
    expect(plain).toMatchObject({ component: 'engine', strategy: 'ladder' });
    // The child made for one line leaves the logger's own bindings as they were.
    child.info('after');
    expect(parsedLines(lines)[3]).toMatchObject({ component: 'engine', msg: 'after' });
  });

  it('level, time and msg in a logged object are kept beside pino\'s own, under loggedLevel, loggedTime, loggedMsg', () => {
    const { logger, lines } = capture();
    // What the Binance double's stream-error line logs: the venue's message beside our own.
    logger.warn({ market: 'binance:ETHUSDT', code: -1, msg: 'venue says no' }, 'Binance stream error');
    logger.info({ level: 3, time: 5, side: 'bid' }, 'book level');
    logger.info({ msg: 'a logged object alone: its msg is the message' });
    const [stream, book, alone] = parsedLines(lines);
    expect(stream).toMatchObject({ level: 40, code: -1, loggedMsg: 'venue says no', msg: 'Binance stream error' });
    expect(book).toMatchObject({ level: 30, loggedLevel: 3, loggedTime: 5, side: 'bid', msg: 'book level' });
    expect(book?.['time']).not.toBe(5);
    expect(alone).toMatchObject({ msg: 'a logged object alone: its msg is the message' });
  });

  it('keeps secrets redacted when a child\'s bindings are merged, and errors serialised', () => {
    const { logger, lines } = capture();
    const child = logger.child({ privateKey: '0xdeadbeef', component: 'signer' }).child({ component: 'signer' });
    child.error(new Error('refused'));
    child.info({ privateKey: '0xfeedface' }, 'rebound');
    const [error, rebound] = parsedLines(lines);
    expect(lines.join('')).not.toMatch(/deadbeef|feedface/);
    expect(error).toMatchObject({ privateKey: '<redacted>', component: 'signer', err: { type: 'Error', message: 'refused' }, msg: 'refused' });
    expect(rebound).toMatchObject({ privateKey: '<redacted>' });
  });
});

describe('where loggers come from', () => {
  it('every logger of the sources is made by createLogger: no other module imports pino', () => {
    const root = new URL('../..', import.meta.url).pathname;
    const importers = ['src', 'strategies']
      .flatMap((dir) => readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((file) => join(root, dir, file)))
      .filter((path) => /\.(ts|js|mjs)$/.test(path) && /from ['"]pino['"]|import\(['"]pino['"]\)/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(root, path));
    expect(importers).toEqual(['src/core/logger.ts']);
  });
});
