import { describe, expect, it } from 'vitest';
import { parsePairConfig } from '../../src/config/index.ts';
import { engineSettingsOf } from '../../src/engine/index.ts';
import { issuesOf } from './support.ts';

const minimal = {
  TRADING_ACCOUNT: '0x033c627a3e5213790e246a917770ce23d7e562baa5b4d2917c23b1be6d91961c',
  SIGNER_PRIVATE_KEY: '0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc',
  BASE: 'ETH',
  QUOTE: 'USDC',
};
const DECIMALS = { baseDecimals: 18, quoteDecimals: 6 };

describe('signal and alpha keys', () => {
  it('leave every alpha weight and the toxicity widening at 0 in a file that sets none', () => {
    const signals = engineSettingsOf(parsePairConfig(minimal).keys, DECIMALS).signals;
    expect(signals).toMatchObject({ alphaObiBps: 0, alphaOfiBps: 0, alphaTradeFlowBps: 0, alphaMaxBps: 2, toxicityWidenRatio: 0, obiLevels: 5, volShortHalfLifeMs: 10_000 });
  });

  it('reach the engine as written: negative weights, seconds as ms', () => {
    const keys = parsePairConfig({ ...minimal, ALPHA_OBI_BPS: '0.7092', ALPHA_TRADE_FLOW_BPS: '-0.05', SIGNAL_VOL_LONG_HALF_LIFE_S: '60', SIGNAL_OBI_LEVELS: '1' }).keys;
    expect(engineSettingsOf(keys, DECIMALS).signals).toMatchObject({ alphaObiBps: 0.7092, alphaTradeFlowBps: -0.05, volLongHalfLifeMs: 60_000, obiLevels: 1 });
  });

  it('name each bad key, its value and what is allowed', () => {
    const error = issuesOf({ ...minimal, ALPHA_OBI_BPS: 'abc', SIGNAL_OBI_LEVELS: '0', ALPHA_MAX_BPS: '-1' });
    expect(error.message).toContain('ALPHA_OBI_BPS="abc": a signed decimal number of bps from -1000 to 1000');
    expect(error.message).toContain('SIGNAL_OBI_LEVELS="0": an integer from 1 to 50');
    expect(error.message).toContain('ALPHA_MAX_BPS="-1"');
  });
});
