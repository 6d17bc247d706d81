/**
 * A hedged backtest session on synthetic data: the quoted venue is a replayed book we write event
 * by event, the hedge venue a deep static book (a recording held in memory), both on one manual
 * clock with their own latencies, so the engine, the hedger and both ports run unchanged and
 * every step is deterministic.
 */
import type { DesiredQuote, InventoryView, MarketView, Side, Strategy } from '../../../src/core/index.ts';
import { constantLatency } from '../../../src/backtest/latency.ts';
import { riskAverseQueue } from '../../../src/backtest/queue-model.ts';
import { BacktestSession } from '../../../src/backtest/session.ts';
import type { HedgeRecording } from '../../../src/backtest/hedge/hedge-recording.ts';
import { DEFAULT_ENGINE_SETTINGS, type EngineObserver, type HedgerSettings } from '../../../src/engine/index.ts';
import { ETH_USDC, eth, usdc } from '../fixtures.ts';

export const START_MS = 1_000_000;

/** Ticks of 0.01 USDC and lots of 0.0001 ETH on the quoted venue. */
export const px = (price: number): number => Math.round(price * 100);
export const lots = (size: number): number => Math.round(size * 1e4);

/** One bid and one ask `offset` around the venue's mid, `size` each. */
export function fixedSpread(offset: number, size = 0.1): Strategy {
  return {
    name: 'fixed',
    orderSize: size,
    quote(view: MarketView, _inventory: InventoryView): DesiredQuote[] {
      if (view.mid === undefined) return [];
      return [
        { side: 'buy', price: view.mid - offset, size, level: 0 },
        { side: 'sell', price: view.mid + offset, size, level: 0 },
      ];
    },
  };
}

/**
 * A hedge book at 1999.99 / 2000.01 USDT with `levelQty` ETH on each of 20 levels a cent apart,
 * from the start (8-decimal prices and quantities, tick 0.01, lot `lotUnits` × 10^-8 ETH: by
 * default Binance's precision, so a hedge can match a fill exactly).
 */
export function staticHedgeBook(levelQty = 5, lotUnits = 1n): HedgeRecording {
  const levels = 20;
  const count = 1 + 2 * levels;
  const timeMs = new Float64Array(count).fill(START_MS);
  const kind = new Uint8Array(count);
  const side = new Uint8Array(count);
  const priceTicks = new Float64Array(count);
  const qtyLots = new Float64Array(count);
  kind[0] = 1; // clear
  for (let i = 0; i < levels; i++) {
    side[1 + i] = 0;
    priceTicks[1 + i] = 199_999 - i;
    qtyLots[1 + i] = (levelQty * 1e8) / Number(lotUnits);
    side[1 + levels + i] = 1;
    priceTicks[1 + levels + i] = 200_001 + i;
    qtyLots[1 + levels + i] = (levelQty * 1e8) / Number(lotUnits);
  }
  return {
    header: { symbol: 'ETHUSDT', source: 'test', priceDecimals: 8, qtyDecimals: 8, tick: '0.01', lot: (Number(lotUnits) / 1e8).toFixed(8), records: count, base: 'ETH', quote: 'USDT', market: 'binance:ETHUSDT' },
    rules: { base: 'ETH', quote: 'USDT', isEcosystemBook: false, priceTick: 1_000_000n, qtyStep: lotUnits, minQty: lotUnits, baseDecimals: 8, quoteDecimals: 8 },
    count,
    timeMs,
    kind,
    side,
    priceTicks,
    qtyLots,
  };
}

export const HEDGE_SETTINGS: HedgerSettings = { feeBps: 10, maxDelayMs: 1_000, maxRetries: 5, minProfitBps: 5, orderType: 'market', iocSlippageBps: 20, basisBps: 0, recvWindowMs: 5_000 };

/** Placements the engine made, with their time and side. */
export interface Placed {
  readonly timeMs: number;
  readonly side: Side;
}

/** Options of {@link hedgedSession}. */
export interface HedgedOptions {
  readonly strategy?: Strategy;
  /** Quoted venue latency each way, ms. */
  readonly latencyMs?: number;
  readonly hedgeLatencyMs?: number;
  readonly settings?: Partial<HedgerSettings>;
  /** Starting hedge account, ETH and USDT. */
  readonly hedgeBase?: number;
  readonly hedgeQuote?: number;
  readonly minNotional?: number;
  readonly book?: HedgeRecording;
}

/** A session and what it observed. */
export interface Hedged {
  readonly session: BacktestSession;
  readonly placed: Placed[];
  /** Applies `apply` at `timeMs`, closes the message, lets the engine react. */
  at(timeMs: number, apply?: () => void): Promise<void>;
}

/** A started hedged session with a two-sided venue book 1999/2001 at the start. */
export async function hedgedSession(options: HedgedOptions = {}): Promise<Hedged> {
  const placed: Placed[] = [];
  const clockOf: { session: BacktestSession | undefined } = { session: undefined };
  const observer: EngineObserver = { orderPlaced: (side) => placed.push({ timeMs: clockOf.session?.clock.nowMs() ?? 0, side }) };
  const session = new BacktestSession({
    venue: {
      rules: ETH_USDC,
      makerFeePbips: 200,
      takerFeePbips: 1000,
      steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 },
      gasPriceUnits: 10n ** 13n,
      quotePerStrk: 0.5,
      latency: constantLatency(options.latencyMs ?? 5),
      feedLatencyMs: 0,
      queue: riskAverseQueue,
      initialBase: eth(1),
      initialQuote: usdc(5_000),
    },
    strategy: options.strategy ?? fixedSpread(0.5),
    settings: { ...DEFAULT_ENGINE_SETTINGS, reconcileIntervalMs: 0, maxOrderAgeMs: 0, presignTicks: 0 },
    startMs: START_MS,
    observer,
    hedge: {
      recording: options.book ?? staticHedgeBook(),
      settings: { ...HEDGE_SETTINGS, ...options.settings },
      latencyMs: options.hedgeLatencyMs ?? 5,
      initialBaseUnits: BigInt(Math.round((options.hedgeBase ?? 10) * 1e8)),
      initialQuoteUnits: BigInt(Math.round((options.hedgeQuote ?? 20_000) * 1e8)),
      minNotionalUnits: BigInt(Math.round((options.minNotional ?? 5) * 1e8)),
    },
  });
  clockOf.session = session;
  const current = session;
  await current.start();
  const at = async (timeMs: number, apply?: () => void): Promise<void> => {
    await current.advanceTo(timeMs);
    apply?.();
    current.endOfMessage();
    if (current.needsFlush()) await current.flush();
  };
  await at(START_MS + 10, () => {
    current.depth('buy', px(1999), lots(2));
    current.depth('sell', px(2001), lots(2));
  });
  await at(START_MS + 30);
  return { session: current, placed, at };
}

/** ETH in the quoted pair's units (18 decimals) of a venue-unit amount (8 decimals). */
export const venueEth = (units: bigint): bigint => units * 10n ** 10n;

/** The maker fee the quoted venue takes from a bought `qty` (200 pbips, rounded up). */
export const makerFeeOn = (qtyUnits: bigint): bigint => (qtyUnits * 200n + 999_999n) / 1_000_000n;
