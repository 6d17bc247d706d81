/**
 * Each key reaches the component that reads it, through the same composition the commands use:
 * one key per reader set in a pair file (or with `--set`), then the settings a backtest, the live
 * venue, the signer, the account and the hedge wiring are built with.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importRecording } from '../../src/backtest/data/importers/index.ts';
import { accountLimitsOf, accountPairsOf } from '../../src/cli/account-files.ts';
import { BACKTEST_DEFAULTS, prepareRun, type BacktestPlan } from '../../src/cli/backtest-plan.ts';
import { liveVenueConfig } from '../../src/cli/live.ts';
import { loadPairFile } from '../../src/cli/pair-config.ts';
import { signingPolicyOf } from '../../src/cli/signer-setup.ts';
import { depthLine, tempDir, writeLines } from '../backtest/data/fixtures.ts';

const T0 = 1_700_000_000_000_000_000n;
const dir = tempDir('settings-readers');
const recording = join(dir, 'ethusdt.data');
const pairFile = join(dir, 'ETH-USDC.env');

/** One key per reader, each away from its default. */
const PAIR_FILE = [
  'TRADING_ACCOUNT=0x033c627a3e5213790e246a917770ce23d7e562baa5b4d2917c23b1be6d91961c',
  'SIGNER_PRIVATE_KEY=0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc',
  'BASE=ETH',
  'QUOTE=USDC',
  'METRICS_PORT=9100',
  'EXCHANGE_ADDRESS=0x5',
  'STRATEGY=ladder',
  'LADDER_ORDER_SIZE=0.07',
  'GAS_REFRESH_S=45',
  'CONVERSION_MARGIN_BPS=70',
  'MAX_ORDER_AGE_S=12',
  'INVENTORY_TARGET_PCT=40',
  'REQUOTE_TOLERANCE_TICKS=4',
  'ORDER_RATE_BURST=7',
  'RISK_MAX_ORDER_NOTIONAL=250',
  'BUDGET_BASE=0.75',
  'RISK_MAX_DRAWDOWN_ACCOUNT=150',
  'REFERENCE=binance:ETHUSDT',
  'REFERENCE_STALE_MS=1500',
  'REFERENCE_JUMP_BPS=33',
  'HEDGE=binance:ETHUSDT',
  'HEDGE_REST_URL=http://127.0.0.1:9200',
  'HEDGE_API_KEY=abcdefgh12',
  'HEDGE_API_SECRET=a-secret-of-some-length',
];

function plan(overrides: Record<string, string>): BacktestPlan {
  const d = BACKTEST_DEFAULTS;
  return {
    data: [recording],
    envPath: pairFile,
    overrides,
    base: undefined,
    quote: undefined,
    baseDecimals: undefined,
    quoteDecimals: undefined,
    tick: undefined,
    lot: undefined,
    queue: d.queue,
    latencyMs: d.latencyMs,
    latencyJitterMs: d.latencyJitterMs,
    feedLatencyMs: d.feedLatencyMs,
    seed: d.seed,
    initialBase: d.initialBase,
    makerPbips: d.makerPbips,
    takerPbips: d.takerPbips,
    gasPriceFri: d.gasPriceFri,
    strkPrice: d.strkPrice,
    hedge: [recording],
    hedgeLatencyMs: d.hedgeLatencyMs,
    hedgeMinNotional: undefined,
    reference: [recording],
  };
}

describe('settings reach their readers', () => {
  beforeAll(async () => {
    const input = writeLines(dir, 'ethusdt.txt', [
      depthLine(T0, 100, 104, [['100.00000000', '2.00000000']], []),
      `${T0 + 1_000_000n} ${JSON.stringify({ lastUpdateId: 102, bids: [['100.00000000', '5.00000000']], asks: [['100.01000000', '3.00000000']] })}`,
      depthLine(T0 + 2_000_000n, 105, 106, [], [['100.02000000', '0.50000000']]),
    ]);
    await importRecording('binance', [input], recording, () => undefined);
    writeFileSync(pairFile, PAIR_FILE.join('\n'));
    chmodSync(pairFile, 0o600);
  });

  it('gives a backtest\'s engine, reference, hedger and strategy the keys of the pair file and --set', () => {
    const run = prepareRun(plan({ HEDGE_FEE_BPS: '7' }));
    // The recording's prices have 8 decimals: quote amounts are in 10^-8.
    expect(run.market.quoteDecimals).toBe(8);
    const { settings, hedge, reference, strategy } = run.options;
    expect(settings.maxOrderAgeMs).toBe(12_000);
    expect(settings.conversionMargin).toBe(0.007);
    expect(settings.inventoryTarget).toEqual({ kind: 'value-fraction', fraction: 0.4 });
    expect(settings.requoteTolerance.ticks).toBe(4);
    expect(settings.outbound.burst).toBe(7);
    expect(settings.risk.maxOrderNotionalUnits).toBe(250n * 10n ** 8n);
    expect(settings.reference?.jumpBps).toBe(33);
    expect(reference?.staleAfterMs).toBe(1_500);
    expect(hedge?.settings.feeBps).toBe(7);
    expect(strategy.orderSize).toBe(0.07);
  });

  it('gives the live venue, the signer, the account and the hedge wiring the keys of the pair file', () => {
    const config = loadPairFile(pairFile);
    expect(config.metricsPort).toBe(9100);
    if (config.signer?.kind !== 'key') throw new Error('expected the signer key of the pair file');
    const venue = liveVenueConfig(config, { kind: 'key', privateKey: config.signer.privateKey });
    expect(venue).toMatchObject({ gasRefreshS: 45, conversionMarginBps: 70, feeToken: 'STRK', orderTtlS: 3600, contracts: { executorAddress: '0x5' } });
    const policy = signingPolicyOf(config);
    expect(policy.pairs[0]?.maxOrderNotionalUnits).toBe(250_000_000n);
    expect(policy.contracts?.executorAddress).toBe('0x5');
    expect(accountPairsOf([config])[0]?.budgetBaseUnits).toBe(750_000_000_000_000_000n);
    // The account-wide limits apply to an account of several pairs (a pair alone: its own RISK_* keys are the account's).
    expect(accountLimitsOf([config, config], new Map()).maxDrawdownQuote).toBe(150);
    expect(accountLimitsOf([config], new Map()).maxDrawdownQuote).toBe(0);
    expect(config.reference).toMatchObject({ market: { venue: 'binance', symbol: 'ETHUSDT' }, staleMs: 1_500, jumpBps: 33 });
    expect(config.hedge).toMatchObject({ restUrl: 'http://127.0.0.1:9200', feeBps: 10, credentials: { kind: 'hmac' } });
  });
});
