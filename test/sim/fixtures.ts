/** Builders for sim tests: orders and requests in base units, and an engine wired to a recorder. */
import { ManualClock, createSilentLogger, getChain, parseUnits, type ChainInfo } from '../../src/core/index.ts';
import type { FixedFee, GasFee, IncreaseNonceRequest, OrderRequest, WithdrawRequest } from '../../src/exchange/wire/requests.ts';
import { Engine } from '../../src/sim/engine.ts';
import type { AccountReportEvent, EngineListener, ExecutionEvent, TradeEvent } from '../../src/sim/events.ts';
import { Ledger } from '../../src/sim/ledger.ts';
import { listMarkets, marketKey, type Market } from '../../src/sim/markets.ts';
import { DEFAULT_SETTINGS, type SimSettings } from '../../src/sim/settings.ts';

export const CHAIN: ChainInfo = getChain('mainnet');
export const START_MS = 1_750_000_000_000;
export const ALICE = 0xa11cen;
export const BOB = 0xb0bn;

export function token(symbol: string) {
  const found = CHAIN.tokens.get(symbol);
  if (found === undefined) throw new Error(symbol);
  return found;
}

export function units(symbol: string, amount: string): bigint {
  return parseUnits(amount, token(symbol).decimals);
}

/** Options of a test order: human decimals, everything else defaulted to a valid post-only bid. */
export interface OrderSpec {
  maker?: bigint;
  base?: string;
  quote?: string;
  side?: 'buy' | 'sell';
  price?: string;
  qty?: string;
  quoteQty?: string;
  postOnly?: boolean;
  market?: boolean;
  fullFillOnly?: boolean;
  bestLevelOnly?: boolean;
  ecosystem?: boolean;
  nonce?: number;
  stp?: number;
  swaps?: number;
  createdAtSec?: number;
  durationSec?: number;
  salt?: bigint;
  feeToken?: string;
  maxGasPrice?: bigint;
  gasPerAction?: number;
  conversionRate?: readonly [bigint, bigint];
  makerPbips?: number;
  takerPbips?: number;
  recipient?: bigint;
  feeOnReceipt?: boolean;
}

const ZERO_FEE: FixedFee = { recipient: 0n, makerPbips: 0, takerPbips: 0 };
let saltCounter = 1n;

export function gasFee(options: { feeToken?: string; maxGasPrice?: bigint; gasPerAction?: number; conversionRate?: readonly [bigint, bigint] } = {}): GasFee {
  return {
    gasPerAction: options.gasPerAction ?? 150,
    feeToken: token(options.feeToken ?? 'STRK'),
    maxGasPrice: options.maxGasPrice ?? DEFAULT_SETTINGS.gasPriceFri * 2n,
    conversionRate: options.conversionRate ?? [10n ** 18n, 10n ** 18n],
  };
}

export function order(spec: OrderSpec = {}): OrderRequest {
  const base = token(spec.base ?? 'ETH');
  const quote = token(spec.quote ?? 'USDC');
  const isMarket = spec.market ?? false;
  return {
    maker: spec.maker ?? ALICE,
    price: parseUnits(spec.price ?? '3000', quote.decimals),
    baseQty: spec.qty === undefined && spec.quoteQty !== undefined ? 0n : parseUnits(spec.qty ?? '1', base.decimals),
    quoteQty: spec.quoteQty === undefined ? 0n : parseUnits(spec.quoteQty, quote.decimals),
    base,
    quote,
    fee: {
      tradeFee: {
        recipient: spec.recipient ?? BigInt(CHAIN.feeRecipient),
        makerPbips: spec.makerPbips ?? DEFAULT_SETTINGS.makerPbips,
        takerPbips: spec.takerPbips ?? DEFAULT_SETTINGS.takerPbips,
      },
      routerFee: ZERO_FEE,
      integratorFee: ZERO_FEE,
      applyToReceiptAmount: spec.feeOnReceipt ?? true,
      gasFee: gasFee(spec),
    },
    constraints: {
      numberOfSwapsAllowed: spec.swaps ?? 10,
      durationValid: spec.durationSec ?? 3600,
      createdAt: spec.createdAtSec ?? Math.floor(START_MS / 1000),
      stp: spec.stp ?? 0,
      nonce: spec.nonce ?? 0,
      minReceiveAmount: 0n,
      routerSigner: 0n,
    },
    salt: spec.salt ?? saltCounter++,
    flags: {
      fullFillOnly: spec.fullFillOnly ?? false,
      bestLevelOnly: spec.bestLevelOnly ?? false,
      postOnly: spec.postOnly ?? !isMarket,
      isSellSide: (spec.side ?? 'buy') === 'sell',
      isMarketOrder: isMarket,
      toEcosystemBook: spec.ecosystem ?? true,
      externalFunds: false,
    },
    source: 'layerakira',
    signScheme: 'ecdsa curve',
  };
}

export function withdrawRequest(maker: bigint, symbol: string, amount: string, options: { feeToken?: string; maxGasPrice?: bigint } = {}): WithdrawRequest {
  return { maker, token: token(symbol), amount: units(symbol, amount), salt: saltCounter++, receiver: maker, gasFee: gasFee(options), signScheme: 'ecdsa curve' };
}

export function nonceRequest(maker: bigint, newNonce: number): IncreaseNonceRequest {
  return { maker, newNonce, salt: saltCounter++, gasFee: gasFee({ gasPerAction: 100 }), signScheme: 'ecdsa curve' };
}

/** Everything an engine emitted, for assertions. */
export class Recorder implements EngineListener {
  readonly executions: Array<{ hash: bigint; status: string; result: string | undefined; fillBase: bigint | undefined }> = [];
  readonly trades: TradeEvent[] = [];
  readonly reports: AccountReportEvent[] = [];
  readonly bookChanges: Array<Map<Market, unknown>> = [];

  onExecution(event: ExecutionEvent): void {
    this.executions.push({ hash: event.order.hash, status: event.order.status, result: event.order.matcherResult, fillBase: event.fill?.base });
  }
  onTrade(event: TradeEvent): void {
    this.trades.push(event);
  }
  onAccountReport(event: AccountReportEvent): void {
    this.reports.push(event);
  }
  onBooksChanged(changes: ReadonlyMap<Market, unknown>): void {
    this.bookChanges.push(new Map(changes));
  }
  statusesOf(hash: bigint): string[] {
    return this.executions.filter((entry) => entry.hash === hash).map((entry) => entry.status);
  }
}

/** An engine on a manual clock with funded accounts. */
export function engineHarness(options: { settings?: Partial<SimSettings>; gasPriceFri?: bigint } = {}) {
  const clock = new ManualClock(START_MS);
  const ledger = new Ledger();
  const recorder = new Recorder();
  const settings: SimSettings = { ...DEFAULT_SETTINGS, ...options.settings };
  let gasPrice = options.gasPriceFri ?? settings.gasPriceFri;
  const markets = listMarkets(CHAIN);
  for (const account of [ALICE, BOB]) {
    for (const [symbol, amount] of [['ETH', '100'], ['USDC', '1000000'], ['USDT', '1000000'], ['STRK', '1000000']] as const) {
      ledger.deposit(account, symbol, units(symbol, amount));
    }
  }
  const engine = new Engine({ chain: CHAIN, settings, clock, ledger, markets, listener: recorder, logger: createSilentLogger(), gasPriceFri: () => gasPrice });
  let nextHash = 1000n;
  const marketOf = (request: OrderRequest): Market => {
    const market = engine.markets.get(marketKey(request.base.symbol, request.quote.symbol, request.flags.toEcosystemBook));
    if (market === undefined) throw new Error('no market');
    return market;
  };
  return {
    clock,
    ledger,
    recorder,
    engine,
    settings,
    setGasPrice: (value: bigint) => {
      gasPrice = value;
    },
    place: (request: OrderRequest) => engine.acceptOrder(request, nextHash++, marketOf(request)),
    nextHash: () => nextHash++,
    /** Lets the queue drain (it runs on microtasks). */
    settle: async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}
