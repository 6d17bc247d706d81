/**
 * Hostile input into what the venue and reference issues added (issue 13 item 6), like the
 * 10 000-frame fuzz beside it (`fuzz.test.ts`): Binance reference-feed frames, the Starknet
 * JSON-RPC answers the core-contract check reads, and the venue's fast-sign answers. Every
 * outcome is a value or a typed MmError with a stable code, never another exception; a malformed
 * reference frame is skipped without costing the book anything the good frames carried.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLines } from '../../src/backtest/data/index.ts';
import { MmError, createSilentLogger, getChain } from '../../src/core/index.ts';
import { readCoreContract } from '../../src/exchange/chain/core-contract.ts';
import { openEnvelope } from '../../src/exchange/client/envelope.ts';
import { fastSignMessageHash, parseFastSignChallenge } from '../../src/exchange/client/fast-sign.ts';
import { parseStringResult } from '../../src/exchange/client/responses.ts';
import { BinanceMarketState, FULL_SCALE, parseDepthSnapshot, parseStreamFrame, type DepthSnapshot } from '../../src/markets/binance/index.ts';

const chain = getChain('mainnet');
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = resolve(repoRoot, '../shared/data/binance-spot-hftbacktest');

/** Runs `run`; an exception must be an MmError with a SCREAMING_SNAKE code. */
function expectTypedOrValue(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof MmError)) throw error;
    expect(error.code).toMatch(/^[A-Z][A-Z_]+$/);
  }
}

const hostileValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(null, -1, 1e308, -0, '', 'NaN', '1e999', '0x', '0xzz', '-5', '1.', '.5', '99999999999999999999999999999999999999999', [], {}, '__proto__', '\u0000', '😀'),
);

/** Valid JSON text with one value somewhere replaced by hostile JSON, deleted, or the text truncated. */
function mutated(valid: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...valid), fc.nat(), hostileValue, fc.nat(), fc.constantFrom('replace', 'truncate', 'delete')).map(([text, pick, value, cut, mode]) => {
    if (mode === 'truncate') return text.slice(0, cut % text.length);
    const json = JSON.parse(text) as unknown;
    const slots: [Record<string | number, unknown>, string | number][] = [];
    const walk = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      for (const key of Object.keys(node)) {
        slots.push([node as Record<string | number, unknown>, Array.isArray(node) ? Number(key) : key]);
        walk((node as Record<string, unknown>)[key]);
      }
    };
    walk(json);
    const slot = slots[pick % Math.max(1, slots.length)];
    if (slot !== undefined) {
      const [parent, key] = slot;
      if (mode === 'delete' && !Array.isArray(parent)) delete parent[key];
      else parent[key] = value;
    }
    return JSON.stringify(json);
  });
}

/** The ETHUSDT recording's first frames and its snapshot, as the reference feed receives them. */
async function recordedBinance(limit: number): Promise<{ frames: string[]; snapshot: DepthSnapshot | undefined; beforeSnapshot: number }> {
  const frames: string[] = [];
  let snapshot: DepthSnapshot | undefined;
  let beforeSnapshot = 0;
  for await (const line of readLines(join(dataDir, 'ethusdt_20240808.gz'))) {
    const json = line.slice(line.indexOf(' ') + 1);
    if (json.startsWith('{"lastUpdateId"')) {
      snapshot ??= parseDepthSnapshot(JSON.parse(json), FULL_SCALE, 0);
      beforeSnapshot = frames.length;
    } else {
      frames.push(json);
    }
    if (frames.length >= limit && snapshot !== undefined) break;
  }
  return { frames, snapshot, beforeSnapshot };
}

describe.skipIf(!existsSync(dataDir))('fuzzing the reference feed (Binance frames)', () => {
  it('10 000 malformed or hostile Binance frames give frames or BINANCE_* errors, never a crash', async () => {
    const { frames } = await recordedBinance(300);
    const kinds = ['"e":"depthUpdate"', '"u":', '"e":"trade"'].map((marker) => frames.find((frame) => frame.includes(marker)) ?? frames[0] ?? '{}');
    const valid = [...new Set([...kinds, ...frames.slice(0, 20)])];
    fc.assert(
      fc.property(fc.oneof({ weight: 6, arbitrary: mutated(valid) }, { weight: 2, arbitrary: fc.string() }, { weight: 2, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null') }), (text) => {
        expectTypedOrValue(() => parseStreamFrame(text, 'ETHUSDT', FULL_SCALE, 1_723_075_200_000));
      }),
      { numRuns: 10_000, seed: 13 },
    );
  });

  it('a recorded stream with 2 000 unreadable frames mixed in builds the same book and top as without them', async () => {
    const { frames, snapshot, beforeSnapshot } = await recordedBinance(2_000);
    if (snapshot === undefined) throw new Error('the recording has no snapshot');
    const feed = (junk: readonly string[]): { top: unknown; malformed: number; bookUpdateId: number } => {
      let top: unknown;
      const state = new BinanceMarketState({ market: 'binance:ETHUSDT', symbol: 'ETHUSDT', scale: FULL_SCALE, depth: true, staleAfterMs: 5_000, logger: createSilentLogger(), nowMs: () => 0 });
      state.setListener({ onTop: (next) => (top = next), onTrade: () => undefined, onStatus: () => undefined });
      state.connected();
      for (const [index, frame] of frames.entries()) {
        if (index === beforeSnapshot) state.applySnapshot(snapshot);
        const extra = junk[index];
        if (extra !== undefined) expect(state.handleText(extra, 0)).toBe('none');
        state.handleText(frame, 0);
      }
      return { top, malformed: state.status().counters.malformedFrames, bookUpdateId: state.bookUpdateId };
    };
    // Junk that cannot pass for a frame: not JSON, not an object, a combined frame without data.
    const junk = fc.sample(
      fc.oneof(
        fc.string().map((text) => `{,${text}`),
        fc.constantFrom('', '[]', 'null', '42', '"text"', '{"stream":"ethusdt@depth@100ms","data":null}', '{"stream":"ethusdt@trade","data":"x"}'),
        fc.tuple(fc.constantFrom(...frames.slice(0, 50)), fc.nat()).map(([frame, cut]) => frame.slice(0, 1 + (cut % (frame.length - 2)))),
      ),
      { numRuns: frames.length, seed: 13 },
    );
    const clean = feed([]);
    const noisy = feed(junk);
    expect(clean.top).toBeDefined();
    expect(noisy.top).toEqual(clean.top);
    expect(noisy.bookUpdateId).toBe(clean.bookUpdateId);
    expect(noisy.malformed).toBe(junk.length);
  });
});

describe('fuzzing the venue fast-sign answers', () => {
  const challenge = JSON.stringify({ result: { msg: '1234567890123456789', expiration_ts: 1_723_075_200 } });
  const issued = JSON.stringify({ result: 'f'.repeat(32) });

  it('10 000 hostile answers to request_fast_sign_key and issue_fast_sign_key give a challenge, a key or a typed error', () => {
    const status = fc.constantFrom(200, 200, 200, 200, 400, 401, 404, 422, 429, 500, 503);
    const text = fc.oneof({ weight: 6, arbitrary: mutated([challenge, issued]) }, { weight: 2, arbitrary: fc.string() }, { weight: 2, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null') });
    fc.assert(
      fc.property(status, text, fc.boolean(), (code, body, isChallenge) => {
        expectTypedOrValue(() => {
          const result = openEnvelope(isChallenge ? 'GET /sign/request_fast_sign_key' : 'POST /sign/issue_fast_sign_key', { status: code, text: body, retryAfter: undefined });
          // What the fast-sign session does with an answer: sign the challenge, or keep the key.
          if (isChallenge) fastSignMessageHash(chain, 0x1234n, parseFastSignChallenge(result));
          else parseStringResult(result);
        });
      }),
      { numRuns: 10_000, seed: 13 },
    );
  });
});

describe('fuzzing the Starknet JSON-RPC answers of the core-contract check', () => {
  let server: Server;
  let url = '';
  let answers: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const answer = answers.shift() ?? '{}';
        let id: unknown = 0;
        try {
          id = (JSON.parse(body) as { id?: unknown }).id;
        } catch {
          // the client always sends JSON
        }
        response.setHeader('content-type', 'application/json');
        // `$ID` keeps the request's id in answers that mean to be well-formed envelopes.
        response.end(answer.replaceAll('"$ID"', JSON.stringify(id ?? 0)));
      });
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()));
  });

  it('2 500 checks with hostile answers (10 000 answers) give a view or EXCHANGE_RPC, never a crash', async () => {
    const valid = [
      JSON.stringify({ jsonrpc: '2.0', id: '$ID', result: chain.chainId }),
      JSON.stringify({ jsonrpc: '2.0', id: '$ID', result: [chain.feeRecipient] }),
      JSON.stringify({ jsonrpc: '2.0', id: '$ID', result: ['0x0'] }),
      JSON.stringify({ jsonrpc: '2.0', id: '$ID', error: { code: 20, message: 'Contract not found' } }),
    ];
    const answer = fc.oneof({ weight: 6, arbitrary: mutated(valid) }, { weight: 1, arbitrary: fc.string() }, { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null') });
    const checks = fc.sample(fc.array(answer, { minLength: 4, maxLength: 4 }), { numRuns: 2_500, seed: 13 });
    let views = 0;
    for (const four of checks) {
      answers = [...four];
      try {
        await readCoreContract(url, chain, 0x1234n);
        views++;
      } catch (error) {
        if (!(error instanceof MmError)) throw error;
        expect(error.code).toBe('EXCHANGE_RPC');
      }
    }
    // Some answers survive mutation intact: the check is not refusing everything.
    expect(views).toBeGreaterThan(0);
  }, 120_000);
});
