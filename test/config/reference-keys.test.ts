import { describe, expect, it } from 'vitest';
import { ConfigError, parsePairConfig } from '../../src/config/index.ts';
import { checkReferenceKeys } from '../../src/config/reference-keys.ts';
import { createSilentLogger, createRng, LiveClock, type ConfigIssue } from '../../src/core/index.ts';
import { createReferenceFeed } from '../../src/markets/index.ts';

const minimal = {
  TRADING_ACCOUNT: '0x033c627a3e5213790e246a917770ce23d7e562baa5b4d2917c23b1be6d91961c',
  SIGNER_PRIVATE_KEY: '0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc',
  BASE: 'ETH',
  QUOTE: 'USDC',
};

function issues(env: Record<string, string>): string {
  try {
    parsePairConfig({ ...minimal, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('reference and fair-price keys', () => {
  it('are off by default: the venue mid prices, no reference is read', () => {
    const { reference } = parsePairConfig(minimal);
    expect(reference).toEqual({
      market: undefined,
      wsUrl: 'wss://stream.binance.com:9443',
      restUrl: 'https://api.binance.com',
      staleMs: 5_000,
      price: 'mid',
      basisBps: 'auto',
      basisHalfLifeS: 300,
      basisMaxStepBps: 1,
      maxDivergenceBps: 100,
      jumpBps: 20,
      jumpWindowMs: 1_000,
    });
    const deps = { clock: new LiveClock(), rng: createRng(1), logger: createSilentLogger() };
    expect(createReferenceFeed(reference, deps)).toBeUndefined();
  });

  it('read REFERENCE=binance:ethusdt as the upper-case symbol, and a fixed signed basis', () => {
    const { reference } = parsePairConfig({ ...minimal, REFERENCE: 'binance:ethusdt', REFERENCE_BASIS_BPS: '-2.5', REFERENCE_WS_URL: 'ws://127.0.0.1:9100/' });
    expect(reference).toMatchObject({ market: { venue: 'binance', symbol: 'ETHUSDT' }, basisBps: -2.5, wsUrl: 'ws://127.0.0.1:9100' });
    const feed = createReferenceFeed(reference, { clock: new LiveClock(), rng: createRng(1), logger: createSilentLogger() });
    expect(feed?.market).toBe('binance:ETHUSDT');
    expect(feed?.status()).toMatchObject({ state: 'resyncing', reason: 'starting' });
  });

  it('name every bad key with its value and what is allowed', () => {
    const message = issues({ REFERENCE: 'okx:ETH-USDT', REFERENCE_WS_URL: 'https://stream.binance.com', REFERENCE_BASIS_BPS: 'x', REFERENCE_STALE_MS: '10' });
    expect(message).toContain('REFERENCE="okx:ETH-USDT": off, or binance:SYMBOL');
    expect(message).toContain('REFERENCE_WS_URL="https://stream.binance.com": a URL starting with ws:// or wss://');
    expect(message).toContain('REFERENCE_BASIS_BPS="x": auto (estimate it online), or a decimal number of bps');
    expect(message).toContain('REFERENCE_STALE_MS="10": an integer from 100 to 600000');
  });

  it('refuse a fair price from the reference without a reference', () => {
    // FAIR_PRICE is the engine's key: until its fair stage takes reference and blend it refuses them itself.
    expect(issues({ FAIR_PRICE: 'blend' })).toContain('FAIR_PRICE="blend"');
    const noReference: ConfigIssue[] = [];
    checkReferenceKeys('reference', { REFERENCE: undefined }, noReference);
    expect(noReference).toEqual([{ key: 'FAIR_PRICE', value: 'reference', allowed: 'reference and blend need REFERENCE=binance:SYMBOL (REFERENCE is off)' }]);
    const withReference: ConfigIssue[] = [];
    checkReferenceKeys('blend', { REFERENCE: { venue: 'binance', symbol: 'ETHUSDT' } }, withReference);
    expect(withReference).toEqual([]);
  });
});
