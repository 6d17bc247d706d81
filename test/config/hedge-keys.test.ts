import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parsePairConfig } from '../../src/config/index.ts';
import { ed25519Pair } from '../markets/binance/trading-support.ts';

const minimal = {
  TRADING_ACCOUNT: '0x033c627a3e5213790e246a917770ce23d7e562baa5b4d2917c23b1be6d91961c',
  SIGNER_PRIVATE_KEY: '0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc',
  BASE: 'ETH',
  QUOTE: 'USDC',
};
const SECRET = 'hedgeSecretValue-4242-do-not-print';

function issues(env: Record<string, string>, baseDir?: string): string {
  try {
    parsePairConfig({ ...minimal, ...env }, baseDir === undefined ? {} : { baseDir });
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('hedge keys', () => {
  it('are off by default, with Binance\'s endpoints and a cautious retry and delay policy', () => {
    const { hedge } = parsePairConfig(minimal);
    expect(hedge).toMatchObject({
      market: undefined,
      credentials: undefined,
      restUrl: 'https://api.binance.com',
      wsUrl: 'wss://ws-api.binance.com:443/ws-api/v3',
      streamUrl: 'wss://stream.binance.com:9443',
      feeBps: 10,
      maxDelayMs: 1_000,
      maxRetries: 5,
      minProfitBps: 5,
      orderType: 'market',
    });
  });

  it('need an API key and exactly one of its HMAC secret and its Ed25519 key file when on', () => {
    expect(issues({ HEDGE: 'binance:ethusdt' })).toContain('HEDGE_API_KEY=(missing): required with HEDGE');
    expect(issues({ HEDGE: 'binance:ETHUSDT', HEDGE_API_KEY: 'abcdefgh12' })).toContain('exactly one of HEDGE_API_SECRET (HMAC) and HEDGE_PRIVATE_KEY_FILE (Ed25519)');
    const { hedge } = parsePairConfig({ ...minimal, HEDGE: 'binance:ethusdt', HEDGE_API_KEY: 'abcdefgh12', HEDGE_API_SECRET: SECRET });
    expect(hedge.market).toEqual({ venue: 'binance', symbol: 'ETHUSDT' });
    expect(hedge.credentials?.kind).toBe('hmac');
  });

  it('never echo the secret: errors print <redacted>, the config and its raw keys hold no copy', () => {
    const message = issues({ HEDGE: 'binance:ETHUSDT', HEDGE_API_KEY: 'abcdefgh12', HEDGE_API_SECRET: `\u0001${SECRET}`, HEDGE_FEE_BPS: 'lots' });
    expect(message).toContain('HEDGE_API_SECRET=<redacted>');
    expect(message).toContain('HEDGE_FEE_BPS="lots"');
    expect(message).not.toContain(SECRET);
    const config = parsePairConfig({ ...minimal, HEDGE: 'binance:ETHUSDT', HEDGE_API_KEY: 'abcdefgh12', HEDGE_API_SECRET: SECRET });
    expect(JSON.stringify(config)).not.toContain(SECRET);
    expect(config.raw['HEDGE_API_SECRET']).toBeUndefined();
    expect(String(config.hedge.credentials?.kind === 'hmac' ? config.hedge.credentials.secretKey : '')).toBe('<redacted>');
  });

  it('read an Ed25519 key from a file next to the pair file, refusing one others may read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'akira-hedge-key-'));
    writeFileSync(join(dir, 'hedge.pem'), ed25519Pair().privatePem);
    chmodSync(join(dir, 'hedge.pem'), 0o644);
    const env = { HEDGE: 'binance:ETHUSDT', HEDGE_API_KEY: 'abcdefgh12', HEDGE_PRIVATE_KEY_FILE: 'hedge.pem' };
    expect(issues(env, dir)).toMatch(/HEDGE_PRIVATE_KEY_FILE=".*hedge\.pem": a file readable by its owner only \(mode is 0644\): run chmod 600/);
    chmodSync(join(dir, 'hedge.pem'), 0o600);
    const { hedge } = parsePairConfig({ ...minimal, ...env }, { baseDir: dir });
    expect(hedge.credentials).toMatchObject({ kind: 'ed25519', path: join(dir, 'hedge.pem') });
    expect(JSON.stringify(hedge)).not.toContain('PRIVATE KEY');
  });

  it('refuse STRATEGY=xemm without HEDGE: it quotes at the hedge\'s cost', () => {
    expect(issues({ STRATEGY: 'xemm' })).toContain('STRATEGY="xemm": xemm quotes at the hedge\'s cost: it needs HEDGE=binance:SYMBOL');
  });
});
