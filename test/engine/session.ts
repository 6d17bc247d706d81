/**
 * The engine in a backtest session on ETH/USDC, quoting one bid and one ask 0.5 USDC around the
 * fair price, for tests of how it meets a venue that misbehaves (lost cancels, failed cancel-alls,
 * a full journal disk, a venue gone dark at shutdown).
 */
import type { DesiredQuote, MarketView, Strategy } from '../../src/core/index.ts';
import { constantLatency } from '../../src/backtest/latency.ts';
import { riskAverseQueue } from '../../src/backtest/queue-model.ts';
import { BacktestSession, type SessionOptions } from '../../src/backtest/session.ts';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../src/engine/index.ts';
import { ETH_USDC, eth, usdc } from './fixtures.ts';

/** One bid and one ask of 0.1 ETH, 0.5 USDC either side of the fair price. */
export const fixedQuotes: Strategy = {
  name: 'fixed',
  quote: (view: MarketView): DesiredQuote[] =>
    view.fair === undefined
      ? []
      : [
          { side: 'buy', price: view.fair - 0.5, size: 0.1, level: 0 },
          { side: 'sell', price: view.fair + 0.5, size: 0.1, level: 0 },
        ],
};

/** A session with 1 ETH and 5 000 USDC, no timers of its own (no reconcile, no order ageing, no pre-signing). */
export function quotingSession(settings: Partial<EngineSettings> = {}, extra: Partial<Pick<SessionOptions, 'journal' | 'strategy'>> = {}): BacktestSession {
  return new BacktestSession({
    venue: {
      rules: ETH_USDC,
      makerFeePbips: 0,
      takerFeePbips: 0,
      steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 },
      gasPriceUnits: 10n ** 13n,
      quotePerStrk: 0.5,
      latency: constantLatency(5),
      feedLatencyMs: 0,
      queue: riskAverseQueue,
      initialBase: eth(1),
      initialQuote: usdc(5_000),
    },
    strategy: fixedQuotes,
    settings: { ...DEFAULT_ENGINE_SETTINGS, reconcileIntervalMs: 0, maxOrderAgeMs: 0, presignTicks: 0, ...settings },
    startMs: 0,
    ...extra,
  });
}

/** Moves the session to `t` and replaces the book with one level a side (USDC prices). */
export async function setBook(s: BacktestSession, t: number, bid: number, ask: number): Promise<void> {
  await s.advanceTo(t);
  s.clear();
  s.depth('buy', Math.round(bid * 100), 10_000);
  s.depth('sell', Math.round(ask * 100), 10_000);
  s.endOfMessage();
  if (s.needsFlush()) await s.flush();
}
