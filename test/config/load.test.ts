import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEY_LIST, ENGINE_KEY_LIST, loadPairConfigFile, parsePairConfig } from '../../src/config/index.ts';
import { issuesOf } from './support.ts';

const KEY = '0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc';
const minimal = {
  TRADING_ACCOUNT: '0x033c627a3e5213790e246a917770ce23d7e562baa5b4d2917c23b1be6d91961c',
  SIGNER_PRIVATE_KEY: KEY,
  BASE: 'ETH',
  QUOTE: 'USDC',
};


describe('parsePairConfig', () => {
  it('fills defaults around the four required keys', () => {
    const config = parsePairConfig(minimal);
    expect(config.exchangeHttpUrl).toBe('http://127.0.0.1:8080');
    expect(config.exchangeWsUrl).toBe('ws://127.0.0.1:8080/ws');
    expect(config.chain).toBe('mainnet');
    expect(config.gasPriceMultiplier).toEqual({ text: '1.25', value: 1.25 });
    expect(config.metricsPort).toBe(9464);
    expect(config.withdrawHash).toBe('snip12');
    expect(config.strategy).toBe('ladder');
    expect(config.signer?.kind === 'key' ? config.signer.privateKey.reveal() : undefined).toBe(KEY);
    expect(config.withdrawAllowedReceivers).toEqual([]);
    expect(config.engine.FEE_TOKEN).toBe('STRK');
    expect(config.engine.STALE_FEED_MS).toBe(10_000);
    expect(config.engine.RISK_MAX_INVENTORY_BASE).toBe('auto');
    expect(config.engine.RISK_MAX_DRAWDOWN).toBe('auto');
    expect(config.engine.INVENTORY_TARGET_BASE).toBe('start');
    expect(config.engine.INVENTORY_TARGET_PCT).toBe('off');
    expect(config.engine.ORDER_RATE_LIMIT_PER_S).toEqual({ text: '10', value: 10 });
    expect(config.engine.STARTUP_ORDERS).toBe('cancel');
  });

  it('reports every bad key at once, each with its value and what is allowed', () => {
    const error = issuesOf({ ...minimal, CHAIN: 'goerli', GAS_PRICE_MULTIPLIER: 'lots', METRICS_PORT: '70000', BASE: 'DOGE' });
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.issues.map((issue) => issue.key).sort()).toEqual(['CHAIN', 'GAS_PRICE_MULTIPLIER', 'METRICS_PORT']);
    expect(error.message).toContain('CHAIN="goerli": one of mainnet, sepolia');
    expect(error.message).toContain('GAS_PRICE_MULTIPLIER="lots": a decimal number from 1 to 10');
    expect(error.message).toContain('METRICS_PORT="70000": an integer from 0 to 65535');
  });

  it('refuses two inventory targets at once, naming the key', () => {
    const error = issuesOf({ ...minimal, INVENTORY_TARGET_PCT: '50', INVENTORY_TARGET_BASE: '2' });
    expect(error.issues.map((issue) => issue.key)).toEqual(['INVENTORY_TARGET_PCT']);
    expect(parsePairConfig({ ...minimal, INVENTORY_TARGET_PCT: '50' }).engine.INVENTORY_TARGET_PCT).toEqual({ text: '50', value: 50 });
    expect(issuesOf({ ...minimal, RISK_MAX_INVENTORY_BASE: 'lots' }).message).toContain('RISK_MAX_INVENTORY_BASE="lots": auto, or a decimal number');
  });

  it('checks tokens against the chain table once the chain is known', () => {
    const error = issuesOf({ ...minimal, BASE: 'DOGE', QUOTE: 'AUSDC' });
    expect(error.message).toContain('BASE="DOGE": a token of mainnet: ETH, STRK, USDC, USDT');
    expect(error.message).toContain('QUOTE="AUSDC": a token of mainnet');
    expect(parsePairConfig({ ...minimal, CHAIN: 'sepolia', BASE: 'AETH', QUOTE: 'AUSDC' }).base).toBe('AETH');
  });

  it('names missing required keys', () => {
    const error = issuesOf({});
    expect(error.issues.map((issue) => issue.key).sort()).toEqual(['BASE', 'QUOTE', 'SIGNER_PRIVATE_KEY', 'TRADING_ACCOUNT']);
    expect(error.message).toContain('TRADING_ACCOUNT=(missing): required');
  });

  it('flags unknown keys as typos and suggests the closest known key', () => {
    const error = issuesOf({ ...minimal, GAS_PRICE_MULTIPLER: '2' });
    expect(error.message).toContain('GAS_PRICE_MULTIPLER="2": no such key (did you mean GAS_PRICE_MULTIPLIER?)');
    expect(() => parsePairConfig({ ...minimal, LADDER_LEVELS: '3' }, { extraKeys: new Set(['LADDER_LEVELS']) })).not.toThrow();
  });

  it('checks the fee token against the chain table', () => {
    expect(issuesOf({ ...minimal, FEE_TOKEN: 'AUSDC' }).message).toContain('FEE_TOKEN="AUSDC": a token of mainnet');
  });

  it('checks STRATEGY against the names it is given', () => {
    const error = issuesOf({ ...minimal, STRATEGY: 'yolo' }, { strategyNames: ['ladder', 'glft'] });
    expect(error.message).toContain('STRATEGY="yolo": one of ladder, glft');
  });

  it('never shows the private key: not in errors, not in the parsed config when printed', () => {
    const bad = issuesOf({ ...minimal, SIGNER_PRIVATE_KEY: '0xZZ' + KEY.slice(4) });
    expect(bad.message).toContain('SIGNER_PRIVATE_KEY=<redacted>');
    expect(bad.message).not.toContain(KEY.slice(4));
    const config = parsePairConfig(minimal);
    expect(JSON.stringify(config)).not.toContain(KEY);
    expect(inspect(config, { depth: 10 })).not.toContain(KEY);
    expect(config.raw['SIGNER_PRIVATE_KEY']).toBeUndefined();
  });

  it('rejects every invalid value of every key with an issue naming that key', () => {
    const junk = fc.constantFrom('', ' ', 'x', '-1', '1e9', '0x', 'NaN', '99999999999', 'true false', '\u0000', 'ftp://x');
    for (const spec of [...CONFIG_KEY_LIST, ...ENGINE_KEY_LIST]) {
      fc.assert(
        fc.property(junk, (value) => {
          const parsed = spec.parse(value.trim());
          // An optional key left empty is simply not set.
          if (parsed.ok || (spec.optional === true && value.trim() === '')) return;
          const error = issuesOf({ ...minimal, [spec.key]: value });
          expect(error.issues.some((issue) => issue.key === spec.key)).toBe(true);
        }),
      );
    }
  });
});

describe('loadPairConfigFile', () => {
  it('reads a file without touching process.env', () => {
    const dir = mkdtempSync(join(tmpdir(), 'akira-config-'));
    const file = join(dir, 'pair.env');
    writeFileSync(file, Object.entries({ ...minimal, CHAIN: 'sepolia', QUOTE: 'USDT' }).map(([k, v]) => `${k}=${v}`).join('\n'));
    const before = { ...process.env };
    const config = loadPairConfigFile(file);
    expect(config.chain).toBe('sepolia');
    expect(config.quote).toBe('USDT');
    expect(process.env).toEqual(before);
  });

  it('says which file it could not read', () => {
    expect(() => loadPairConfigFile('/nonexistent/pair.env')).toThrow(/cannot read env file \/nonexistent\/pair.env/);
  });
});
