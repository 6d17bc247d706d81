/**
 * A pair's hedger from its validated file (`HEDGE=binance:SYMBOL`): the Binance hedge venue, a
 * market-data feed of the same symbol for the hedge book, the hedge journal beside the order
 * journal (`<journal>.<BASE>-<QUOTE>.hedge`), and the hedger's metrics. `run`, `paper` and `hedge flatten` build it
 * here; the daemon starts it before the engine quotes.
 */
import type { PairConfig } from '../config/index.ts';
import { HEDGE_KEYS, getChain, getToken, settingsOf, type Clock, type Logger, type Rng } from '../core/index.ts';
import { FileHedgeJournal, Hedger, createHedgeMetrics, type HedgeMetrics } from '../engine/index.ts';
import { BinanceReferenceFeed } from '../markets/binance/index.ts';
import { BinanceHedgeVenue } from '../markets/binance/trading/hedge-venue.ts';

/** A hedger and its metrics. */
export interface HedgeWiring {
  readonly hedger: Hedger;
  readonly metrics: HedgeMetrics;
  readonly journalPath: string;
}

/** What building one needs. */
export interface HedgeDeps {
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  /** The hedge journal (`hedgeJournalPath`: beside the account's order journal, one per pair). */
  readonly journalPath: string;
}

/**
 * The pair's hedger, not started; undefined when HEDGE=off.
 * @throws MmError `HEDGE_JOURNAL_LOCKED` when another process holds the hedge journal; BinanceError for unusable keys or URLs.
 */
export function createHedger(config: PairConfig, deps: HedgeDeps): HedgeWiring | undefined {
  const hedge = config.hedge;
  const market = hedge.market;
  const credentials = hedge.credentials;
  if (market === undefined || credentials === undefined) return undefined;
  const logger = deps.logger.child({ component: 'hedge', market: `${market.venue}:${market.symbol}` });
  const venue = new BinanceHedgeVenue({
    symbol: market.symbol,
    restUrl: hedge.restUrl,
    wsApiUrl: hedge.wsUrl,
    credentials: credentials.kind === 'hmac' ? { apiKey: credentials.apiKey, secretKey: credentials.secretKey } : { apiKey: credentials.apiKey, privateKeyPem: credentials.privateKeyPem },
    clock: deps.clock,
    rng: deps.rng.fork('hedge-venue'),
    logger,
    recvWindowMs: hedge.recvWindowMs,
  });
  const book = new BinanceReferenceFeed({ symbol: market.symbol, wsUrl: hedge.streamUrl, restUrl: hedge.restUrl, clock: deps.clock, rng: deps.rng.fork('hedge-book'), logger: logger.child({ component: 'hedge-book' }), snapshotLimit: 100 });
  const journalPath = deps.journalPath;
  const metrics = createHedgeMetrics();
  const hedger = new Hedger({
    venue,
    book,
    clock: deps.clock,
    logger,
    journal: new FileHedgeJournal(journalPath),
    settings: settingsOf(HEDGE_KEYS, 'hedger', config.keys),
    pairBaseDecimals: getToken(getChain(config.chain), config.base).decimals,
    // Unique per start (client order ids are never reused), within Binance's 36 characters.
    idPrefix: `ak${Math.floor(deps.clock.nowMs()).toString(36)}-`,
    observer: metrics.observer,
  });
  return { hedger, metrics, journalPath };
}
