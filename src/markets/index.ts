/**
 * Public surface of `src/markets`: other markets than the venue we quote on, one folder per
 * venue (`binance/` today), each implementing the ports of `src/core` it plays a role in. The CLI
 * builds a pair's reference feed here from its config; OKX or Bybit would be one more case.
 */
import type { Clock, Logger, ReferenceFeed, ReferenceFeedSettings, Rng } from '../core/index.ts';
import { BinanceReferenceFeed, type BinanceMarketObserver } from './binance/index.ts';

export { registerReferenceMetrics } from './metrics.ts';

export type { ReferenceFeedSettings };

/** What every feed needs from its owner. */
export interface FeedDeps {
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  /** A tap on the raw market, for `akira-mm record`. */
  readonly observer?: BinanceMarketObserver;
}

/**
 * The pair's reference feed (not started), or undefined when `REFERENCE=off`.
 * @throws BinanceError `BINANCE_HTTP` when a URL cannot be used.
 */
export function createReferenceFeed(config: ReferenceFeedSettings, deps: FeedDeps): ReferenceFeed | undefined {
  const market = config.market;
  if (market === undefined) return undefined;
  switch (market.venue) {
    case 'binance':
      return new BinanceReferenceFeed({
        symbol: market.symbol,
        wsUrl: config.wsUrl,
        restUrl: config.restUrl,
        staleAfterMs: config.staleMs,
        clock: deps.clock,
        rng: deps.rng.fork('reference'),
        logger: deps.logger.child({ component: 'reference', market: `${market.venue}:${market.symbol}` }),
        ...(deps.observer === undefined ? {} : { observer: deps.observer }),
      });
  }
}
