/**
 * One pair's engine wired to its metrics, as both daemons build it: the one-pair daemon
 * (`daemon.ts`) and the account daemon's pairs (`account-daemon.ts`). The metrics observe the
 * engine's events, read its status, and carry the venue's and the hedger's metrics beside them.
 */
import type { Registry } from 'prom-client';
import type { PairConfig } from '../config/index.ts';
import { getChain, getToken, type Clock, type Logger, type ReferenceFeed, type Strategy, type Venue } from '../core/index.ts';
import { MarketMaker, combineObservers, createEngineMetrics, type EngineMetrics, type EngineObserver, type EngineOptions, type EngineSettings, type Journal } from '../engine/index.ts';
import type { HedgeWiring } from './hedge-wiring.ts';

export interface PairEngineOptions {
  readonly config: PairConfig;
  readonly venue: Venue;
  readonly strategy: Strategy;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly settings: EngineSettings;
  readonly journal: Journal;
  /** Another observer beside the metrics (paper mode and tests count fills). */
  readonly observer?: EngineObserver;
  readonly hedge?: HedgeWiring;
  readonly reference?: ReferenceFeed;
  /** The account this pair shares with others (the account daemon). */
  readonly account?: EngineOptions['account'];
  /** Registers the pair's venue metrics beside its engine's. */
  readonly registerMetrics?: (registry: Registry) => void;
}

/** The engine of a pair and its metrics, bound together. */
export function buildPairEngine(options: PairEngineOptions): { engine: MarketMaker; metrics: EngineMetrics } {
  const { config } = options;
  const chain = getChain(config.chain);
  const metrics = createEngineMetrics({ pair: `${config.base}/${config.quote}`, baseDecimals: getToken(chain, config.base).decimals, quoteDecimals: getToken(chain, config.quote).decimals });
  const engine = new MarketMaker({
    venue: options.venue,
    strategy: options.strategy,
    clock: options.clock,
    logger: options.logger,
    settings: options.settings,
    journal: options.journal,
    observer: combineObservers(options.observer === undefined ? [metrics.observer] : [metrics.observer, options.observer]),
    ...(options.account === undefined ? {} : { account: options.account }),
    ...(options.hedge === undefined ? {} : { hedge: options.hedge.hedger }),
    ...(options.reference === undefined ? {} : { reference: options.reference }),
  });
  metrics.bindStatus(() => engine.status());
  options.registerMetrics?.(metrics.registry);
  options.hedge?.metrics.register(metrics.registry, () => engine.status().hedge, () => engine.status().position);
  return { engine, metrics };
}
