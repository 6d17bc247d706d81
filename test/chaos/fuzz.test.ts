import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MmError, getChain } from '../../src/core/index.ts';
import {
  parseBbo,
  parseConversionRate,
  parseGasPrice,
  parseOrdersPage,
  parseSnapshot,
  parseSteps,
  parseTickerSpecs,
  parseUserInfo,
  parseVenueOrder,
} from '../../src/exchange/client/responses.ts';
import { parseFrame, type ParseContext } from '../../src/exchange/stream/messages.ts';

// Hostile input into the client's parsers: every outcome is a value or a typed MmError with a
// stable code; never a TypeError/RangeError (a crash) and never a change to the inputs or the
// context handed in (parsers own no state, so "no state change" is: nothing they touch moves).
const chain = getChain('mainnet');
const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../fixtures/exchange/${name}`, import.meta.url), 'utf8'));
const validFrames = ['ws_snap_delta.json', 'ws_fills_execution_report.json'].map((name) => JSON.stringify(fixture(name)));
const ethUsdc = { base: chain.tokens.get('ETH'), quote: chain.tokens.get('USDC') } as unknown as Parameters<typeof parseBbo>[1];

function expectTypedOrValue(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof MmError)) throw error;
    expect(typeof error.code).toBe('string');
    expect(error.code).toMatch(/^[A-Z][A-Z_]+$/);
  }
}

/** A valid frame with one value somewhere replaced by hostile JSON, or truncated, or padded. */
function mutatedFrame(): fc.Arbitrary<string> {
  const hostile = fc.oneof(
    fc.jsonValue(),
    fc.constantFrom(null, -1, 1e308, -0, '', 'NaN', '1e999', '0x', '-5', '99999999999999999999999999999999999999999', [], {}, '__proto__', '\u0000'),
  );
  return fc.tuple(fc.constantFrom(...validFrames), fc.nat(), hostile, fc.nat(), fc.constantFrom('replace', 'truncate', 'delete')).map(([text, pick, value, cut, mode]) => {
    if (mode === 'truncate') return text.slice(0, cut % text.length);
    const json = JSON.parse(text) as Record<string, unknown>;
    const paths: [Record<string, unknown> | unknown[], string | number][] = [];
    const walk = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      for (const key of Object.keys(node)) {
        paths.push([node as Record<string, unknown>, Array.isArray(node) ? Number(key) : key]);
        walk((node as Record<string, unknown>)[key]);
      }
    };
    walk(json);
    const target = paths[pick % paths.length];
    if (target !== undefined) {
      const [parent, key] = target;
      if (mode === 'delete' && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[key as string];
      else (parent as Record<string | number, unknown>)[key] = value;
    }
    return JSON.stringify(json);
  });
}

describe('fuzzing the client parsers', () => {
  it('10 000 malformed or hostile WS frames give frames or typed errors, never a crash', () => {
    const context: ParseContext = { chain, receivedMs: 1_718_000_000_000, defaultPair: { base: 'ETH', quote: 'USDC' } as ParseContext['defaultPair'] & object };
    const before = JSON.stringify({ receivedMs: context.receivedMs, defaultPair: context.defaultPair });
    fc.assert(
      fc.property(fc.oneof({ weight: 6, arbitrary: mutatedFrame() }, { weight: 2, arbitrary: fc.string() }, { weight: 2, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null') }), (text) => {
        expectTypedOrValue(() => parseFrame(text, context));
      }),
      { numRuns: 10_000, seed: 6 },
    );
    expect(JSON.stringify({ receivedMs: context.receivedMs, defaultPair: context.defaultPair })).toBe(before);
    for (const text of validFrames) expect(parseFrame(text, context).type).toBe('event');
  });

  it('10 000 hostile REST bodies give values or typed errors, and leave the body untouched', () => {
    const parsers: ((body: unknown) => unknown)[] = [
      (body) => parseGasPrice(body),
      (body) => parseBbo(body, ethUsdc),
      (body) => parseSnapshot(body, ethUsdc),
      (body) => parseUserInfo(body, chain),
      (body) => parseConversionRate(body, chain.tokens.get('ETH') as Parameters<typeof parseConversionRate>[1]),
      (body) => parseSteps(body),
      (body) => parseTickerSpecs(body),
      (body) => parseVenueOrder(body, chain),
      (body) => parseOrdersPage(body, chain),
    ];
    const templates = ['http_user_user_info.json', 'http_user_order_full.json', 'http_user_orders_reduced.json', 'http_info_ticker_specifications.json'].map(
      (name) => (fixture(name) as { result: unknown }).result,
    );
    const body = fc.oneof(
      fc.jsonValue(),
      fc.tuple(fc.constantFrom(...templates), fc.jsonValue(), fc.nat()).map(([template, value, pick]) => {
        const copy = structuredClone(template) as Record<string, unknown>;
        const keys = Object.keys(copy);
        const key = keys[pick % Math.max(1, keys.length)];
        if (key !== undefined) copy[key] = value;
        return copy;
      }),
    );
    fc.assert(
      fc.property(body, fc.nat(parsers.length - 1), (value, index) => {
        const snapshot = JSON.stringify(value);
        expectTypedOrValue(() => parsers[index]?.(value));
        expect(JSON.stringify(value)).toBe(snapshot);
      }),
      { numRuns: 10_000, seed: 6 },
    );
  });
});
