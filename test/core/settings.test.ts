import { describe, expect, expectTypeOf, it } from 'vitest';
import { CONFIG_KEYS } from '../../src/config/index.ts';
import {
  ALERT_KEYS,
  ENGINE_KEYS,
  HEDGE_KEYS,
  MmError,
  REFERENCE_KEYS,
  defaultValues,
  defineKeys,
  key,
  settingsOf,
  values as v,
  type AlertEventKind,
  type AlertPolicy,
  type KeySpec,
  type KeyValues,
  type LowBalanceThreshold,
  type Landing,
  type Reader,
  type ReferenceMarket,
} from '../../src/core/index.ts';
import type { AccountPair, ConfiguredRiskLimits, EngineSettings, HedgerSettings, OutboundBudget, RequoteTolerance } from '../../src/engine/index.ts';
import type { ReferenceSettings } from '../../src/engine/reference-pricer.ts';
import type { LiveVenueConfig } from '../../src/exchange/index.ts';

const TABLES: Readonly<Record<string, Readonly<Record<string, KeySpec>>>> = { CONFIG_KEYS, ENGINE_KEYS, REFERENCE_KEYS, HEDGE_KEYS, ALERT_KEYS };

/** A valid value other than the default, for every key of the component tables. */
const OTHER: Readonly<Record<string, string>> = {
  EXCHANGE_HTTP_URL: 'https://api.layerakira.xyz',
  EXCHANGE_WS_URL: 'wss://api.layerakira.xyz/ws',
  CHAIN: 'sepolia',
  TRADING_ACCOUNT: '0x2',
  SIGNER_PRIVATE_KEY: '0x3',
  SIGNER_KEYSTORE: 'keystore.json',
  SIGNER_KEYSTORE_PASSWORD: 'hunter22',
  SIGNER_REMOTE: 'unix:/run/signer.sock',
  WITHDRAW_ALLOWED_RECEIVERS: '0x4',
  BASE: 'STRK',
  QUOTE: 'USDT',
  ECOSYSTEM_BOOK: 'false',
  STRATEGY: 'glft',
  METRICS_PORT: '9100',
  METRICS_HOST: '0.0.0.0',
  GAS_PRICE_MULTIPLIER: '2',
  WITHDRAW_HASH: 'poseidon',
  LOG_LEVEL: 'debug',
  EXCHANGE_ADDRESS: '0x5',
  CORE_ADDRESS: '0x6',
  ROUTER_ADDRESS: '0x7',
  FEE_RECIPIENT: '0x8',
  STARKNET_RPC_URL: 'http://127.0.0.1:9545',
  FAST_CANCEL: 'on',
  STATE_DIR: '/var/lib/akira-mm',
  SIGNING_WORKERS: '2',
  FEE_TOKEN: 'ETH',
  GAS_REFRESH_S: '45',
  CONVERSION_MARGIN_BPS: '70',
  ORDER_TTL_S: '600',
  INVENTORY_TARGET_BASE: '1.5',
  INVENTORY_TARGET_PCT: '40',
  FAIR_PRICE: 'microprice',
  FAIR_HOLD_MS: '250',
  ARRIVAL_GRID_STEP_BPS: '0.1',
  ARRIVAL_GRID_POINTS: '40',
  REQUOTE_AGGRESSIVE_TOLERANCE_PCT: '25',
  REQUOTE_TOLERANCE_BPS: '3',
  REQUOTE_TOLERANCE_TICKS: '4',
  REQUOTE_TOLERANCE_SIZE_PCT: '30',
  MAX_ORDER_AGE_S: '12',
  MIN_EDGE_BPS: '1.5',
  ORDER_RATE_LIMIT_PER_S: '4',
  ORDER_RATE_BURST: '7',
  PRESIGN_TICKS: '3',
  STARTUP_ORDERS: 'adopt',
  RECONCILE_INTERVAL_S: '9',
  STALE_FEED_MS: '2500',
  SHUTDOWN_TIMEOUT_MS: '4000',
  RISK_MAX_INVENTORY_BASE: '2.5',
  RISK_MAX_ORDER_NOTIONAL: '250',
  RISK_MAX_TOTAL_NOTIONAL: '900',
  RISK_MAX_OPEN_ORDERS: '6',
  RISK_PRICE_BAND_PCT: '2',
  RISK_MAX_DRAWDOWN: '40',
  RISK_ONCHAIN_KILL: 'true',
  BUDGET_BASE: '0.75',
  BUDGET_QUOTE: '300',
  RISK_MAX_TOTAL_NOTIONAL_ACCOUNT: '5000',
  RISK_MAX_DRAWDOWN_ACCOUNT: '150',
  REFERENCE: 'binance:ETHUSDT',
  REFERENCE_WS_URL: 'ws://127.0.0.1:9100',
  REFERENCE_REST_URL: 'http://127.0.0.1:9100',
  REFERENCE_STALE_MS: '1500',
  REFERENCE_PRICE: 'microprice',
  REFERENCE_BASIS_BPS: '-2.5',
  REFERENCE_BASIS_HALF_LIFE_S: '60',
  REFERENCE_BASIS_MAX_STEP_BPS: '0.5',
  REFERENCE_MAX_DIVERGENCE_BPS: '80',
  REFERENCE_JUMP_BPS: '33',
  REFERENCE_JUMP_WINDOW_MS: '2000',
  HEDGE: 'binance:ETHUSDT',
  HEDGE_REST_URL: 'http://127.0.0.1:9200',
  HEDGE_WS_URL: 'ws://127.0.0.1:9200/ws-api/v3',
  HEDGE_STREAM_URL: 'ws://127.0.0.1:9200',
  HEDGE_API_KEY: 'abcdefgh12',
  HEDGE_API_SECRET: 'a-secret-of-some-length',
  HEDGE_PRIVATE_KEY_FILE: 'hedge.pem',
  HEDGE_FEE_BPS: '7',
  HEDGE_MAX_DELAY_MS: '800',
  HEDGE_MAX_RETRIES: '2',
  HEDGE_MIN_PROFIT_BPS: '3',
  HEDGE_ORDER_TYPE: 'ioc',
  HEDGE_IOC_SLIPPAGE_BPS: '15',
  HEDGE_BASIS_BPS: '-1.5',
  HEDGE_RECV_WINDOW_MS: '3000',
  ALERT_WEBHOOK_URL: 'https://alerts.example.com/hook',
  ALERT_TELEGRAM_BOT_TOKEN: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ',
  ALERT_TELEGRAM_CHAT_ID: '-1001234567890',
  ALERT_TELEGRAM_API_URL: 'http://127.0.0.1:8081',
  ALERT_SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/X',
  ALERT_DISCORD_WEBHOOK_URL: 'https://discord.com/api/webhooks/1/token',
  ALERT_EVENTS: 'halt,429-storm',
  ALERT_PAUSE_AFTER_S: '30',
  ALERT_STORM_WINDOW_S: '120',
  ALERT_RECONNECT_STORM: '3',
  ALERT_429_STORM: '20',
  ALERT_LOW_BALANCE: 'USDC:500,ETH:0.25',
  ALERT_DAILY_SUMMARY_UTC: '07:30',
  ALERT_RATE_PER_MIN: '12',
  ALERT_RATE_BURST: '3',
  ALERT_LABEL: 'desk-1',
};

const DECIMALS = { baseDecimals: 18, quoteDecimals: 6 };

function parsed(spec: KeySpec, raw: string): unknown {
  const result = spec.parse(raw);
  if (!result.ok) throw new Error(`${spec.key}=${raw}: ${result.allowed}`);
  return result.value;
}

/** The keys a file must set. */
const REQUIRED: Readonly<Record<string, string>> = { TRADING_ACCOUNT: '0x1', BASE: 'ETH', QUOTE: 'USDC' };

/** Every key of a table as a minimal file gives it. */
function baseline(table: Readonly<Record<string, KeySpec>>): Record<string, unknown> {
  return Object.fromEntries(Object.values(table).map((spec) => [spec.key, spec.optional === true ? undefined : parsed(spec, spec.default ?? (REQUIRED[spec.key] as string))]));
}

function landings(spec: KeySpec): [Reader, string | Landing<unknown>][] {
  return Object.entries(spec.readers ?? {}) as [Reader, string | Landing<unknown>][];
}

describe('settings declared once', () => {
  it('names at least one reader for every key of a component table, and never two keys for one field of a reader', () => {
    for (const [name, table] of Object.entries(TABLES)) {
      const fields = new Map<string, string>();
      for (const spec of Object.values(table)) {
        expect(landings(spec).length, `${name}.${spec.key} has no reader`).toBeGreaterThan(0);
        for (const [reader, landing] of landings(spec)) {
          const field = `${reader}.${typeof landing === 'string' ? landing : landing.field}`;
          expect(fields.get(field), `${spec.key} and ${fields.get(field)} both land on ${field}`).toBeUndefined();
          fields.set(field, spec.key);
        }
      }
    }
  });

  it('carries a changed key to the field each of its readers declares, and to no other field', () => {
    const covered = Object.values(TABLES).flatMap((table) => Object.keys(table));
    expect(Object.keys(OTHER).sort()).toEqual([...covered].sort());
    for (const table of Object.values(TABLES)) {
      const before = baseline(table);
      for (const spec of Object.values(table)) {
        const after = { ...before, [spec.key]: parsed(spec, OTHER[spec.key] as string) };
        for (const [reader, landing] of landings(spec)) {
          const field = typeof landing === 'string' ? landing : landing.field;
          const from = settingsOf(table, reader, before as never, DECIMALS) as Record<string, unknown>;
          const to = settingsOf(table, reader, after as never, DECIMALS) as Record<string, unknown>;
          const changed = Object.keys(to).filter((name) => !Object.is(JSON.stringify(to[name], bigints), JSON.stringify(from[name], bigints)));
          expect(changed, `${spec.key}=${OTHER[spec.key]} in the ${reader} settings`).toEqual([field]);
        }
      }
    }
  });

  it('converts on the way: % and bps to fractions, s to ms, token amounts to base units of the pair', () => {
    const keys = { ...defaultValues(ENGINE_KEYS), ...Object.fromEntries(['REQUOTE_TOLERANCE_SIZE_PCT', 'CONVERSION_MARGIN_BPS', 'MAX_ORDER_AGE_S', 'RISK_MAX_INVENTORY_BASE', 'RISK_MAX_ORDER_NOTIONAL'].map((name) => [name, parsed(ENGINE_KEYS[name as keyof typeof ENGINE_KEYS], OTHER[name] as string)])) };
    expect(settingsOf(ENGINE_KEYS, 'requote', keys, DECIMALS).sizeFraction).toBe(0.3);
    expect(settingsOf(ENGINE_KEYS, 'engine', keys, DECIMALS)).toMatchObject({ conversionMargin: 0.007, maxOrderAgeMs: 12_000 });
    expect(settingsOf(ENGINE_KEYS, 'live-venue', keys, DECIMALS)).toEqual({ feeToken: 'STRK', gasRefreshS: 30, conversionMarginBps: 70, orderTtlS: 3600 });
    expect(settingsOf(ENGINE_KEYS, 'risk', keys, DECIMALS)).toMatchObject({ maxInventoryDeviationUnits: 2_500_000_000_000_000_000n, maxOrderNotionalUnits: 250_000_000n });
    const alerts = { ...defaultValues(ALERT_KEYS), ...Object.fromEntries(['ALERT_PAUSE_AFTER_S', 'ALERT_STORM_WINDOW_S', 'ALERT_LOW_BALANCE', 'ALERT_DAILY_SUMMARY_UTC', 'ALERT_EVENTS'].map((name) => [name, parsed(ALERT_KEYS[name as keyof typeof ALERT_KEYS], OTHER[name] as string)])) };
    expect(settingsOf(ALERT_KEYS, 'alert-policy', alerts)).toMatchObject({
      pauseAfterMs: 30_000,
      stormWindowMs: 120_000,
      lowBalances: [{ token: 'USDC', amount: { text: '500', value: 500 } }, { token: 'ETH', amount: { text: '0.25', value: 0.25 } }],
      dailySummaryMinuteUtc: 450,
      events: ['halt', '429-storm'],
    });
  });

  it('converts an amount only once the pair\'s decimals are known, except zero, which is zero in any unit', () => {
    const defaults = defaultValues(ENGINE_KEYS);
    expect(settingsOf(ENGINE_KEYS, 'risk', defaults).maxOrderNotionalUnits).toBe(0n);
    const notional = { ...defaults, RISK_MAX_ORDER_NOTIONAL: { text: '250', value: 250 } };
    expect(() => settingsOf(ENGINE_KEYS, 'risk', notional, { baseDecimals: 18 })).toThrow(/250 quote tokens need the pair's quote token decimals/);
    expect(() => settingsOf(ENGINE_KEYS, 'risk', notional, { baseDecimals: 18 })).toThrow(MmError);
    expect(settingsOf(ENGINE_KEYS, 'risk', notional, { baseDecimals: 18, quoteDecimals: 2 }).maxOrderNotionalUnits).toBe(25_000n);
  });

  it('refuses to build from values that lack a key the reader reads, and defaults that do not parse', () => {
    const { FAIR_PRICE: _left, ...withoutFairPrice } = defaultValues(ENGINE_KEYS);
    expect(() => settingsOf(ENGINE_KEYS, 'engine', withoutFairPrice as KeyValues<typeof ENGINE_KEYS>)).toThrow('no value of FAIR_PRICE to build the engine settings from');
    const broken = defineKeys({ SOME_KEY: key(v.integer(1, 5), { default: '9', unit: 'n', doc: 'a key whose default is out of range', readers: { engine: 'someKey' } }) });
    expect(() => defaultValues(broken)).toThrow('SOME_KEY has no default that parses');
  });

  it('derives each reader\'s settings type from its keys, units converted', () => {
    expectTypeOf<HedgerSettings>().toEqualTypeOf<{
      readonly feeBps: number;
      readonly maxDelayMs: number;
      readonly maxRetries: number;
      readonly minProfitBps: number;
      readonly orderType: 'market' | 'ioc';
      readonly iocSlippageBps: number;
      readonly basisBps: number;
      readonly recvWindowMs: number;
    }>();
    expectTypeOf<ReferenceSettings>().toEqualTypeOf<{
      readonly price: 'mid' | 'microprice';
      readonly basisBps: number | 'auto';
      readonly basisHalfLifeS: number;
      readonly basisMaxStepBps: number;
      readonly maxDivergenceBps: number;
      readonly jumpBps: number;
      readonly jumpWindowMs: number;
    }>();
    expectTypeOf<ConfiguredRiskLimits>().toEqualTypeOf<{
      readonly maxInventoryDeviationUnits: bigint | 'auto';
      readonly maxOrderNotionalUnits: bigint;
      readonly maxTotalNotionalUnits: bigint | 'auto';
      readonly maxOpenOrders: number;
      readonly priceBandFraction: number;
      readonly maxDrawdownQuote: number | 'auto';
    }>();
    expectTypeOf<AlertPolicy>().toEqualTypeOf<{
      readonly events: readonly AlertEventKind[];
      readonly pauseAfterMs: number;
      readonly stormWindowMs: number;
      readonly reconnectStorm: number;
      readonly rateLimitStorm: number;
      readonly lowBalances: readonly LowBalanceThreshold[];
      readonly dailySummaryMinuteUtc: number | undefined;
      readonly ratePerMin: number;
      readonly burst: number;
      readonly label: string;
    }>();
    expectTypeOf<RequoteTolerance['bps']>().toEqualTypeOf<number | 'auto'>();
    expectTypeOf<OutboundBudget['ratePerS']>().toEqualTypeOf<number>();
    expectTypeOf<EngineSettings['maxOrderAgeMs']>().toEqualTypeOf<number>();
    expectTypeOf<EngineSettings['fairPrice']>().toEqualTypeOf<'mid' | 'microprice' | 'reference' | 'blend'>();
    expectTypeOf<AccountPair['budgetBaseUnits']>().toEqualTypeOf<bigint | undefined>();
    expectTypeOf<LiveVenueConfig['orderTtlS']>().toEqualTypeOf<number>();
    expectTypeOf(settingsOf(REFERENCE_KEYS, 'reference-feed', defaultValues(REFERENCE_KEYS)).market).toEqualTypeOf<ReferenceMarket | undefined>();
    // An optional key may be unset: its value may be undefined.
    expectTypeOf(settingsOf(CONFIG_KEYS, 'signer', baseline(CONFIG_KEYS) as never).keystore).toEqualTypeOf<string | undefined>();
  });
});

describe('value parsers', () => {
  it('take a strategy\'s words in any case and the config\'s as written', () => {
    expect(v.oneOf(['mid', 'fair'] as const, { anyCase: true })('FAIR')).toEqual({ ok: true, value: 'fair' });
    expect(v.oneOf(['mid', 'fair'] as const)('FAIR')).toEqual({ ok: false, allowed: 'one of mid, fair' });
    expect(v.keywordOrNumber('auto', { min: 0 })('AUTO')).toEqual({ ok: true, value: 'auto' });
    expect(v.keywordOrDecimal('auto', 0, 10)('AUTO')).toEqual({ ok: false, allowed: 'auto, or a decimal number from 0 to 10 (plain digits, e.g. 1.25)' });
  });

  it('keep a decimal amount\'s text for exact math, and read a signed basis', () => {
    expect(v.decimal(0, 100)('0.10')).toEqual({ ok: true, value: { text: '0.10', value: 0.1 } });
    expect(v.decimal(0, 100)('1e2')).toMatchObject({ ok: false });
    expect(v.numberIn({ min: 0 })('1e2')).toEqual({ ok: true, value: 100 });
    expect(v.signedDecimal(-10, 10, 'bps')('-2.5')).toEqual({ ok: true, value: -2.5 });
    expect(v.signedDecimal(-10, 10, 'bps')('11')).toEqual({ ok: false, allowed: 'a signed decimal number of bps from -10 to 10' });
    expect(v.boolean('No')).toEqual({ ok: true, value: false });
    expect(v.boolean('maybe')).toEqual({ ok: false, allowed: 'true/false, 1/0, on/off or yes/no' });
  });
});

function bigints(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value}n` : value;
}
