/**
 * Public market data (REFERENCE §1.2 #4–5, §3.3): REST `bbo` and `snapshot`, and the WS `bbo`,
 * `trade` and `snap` streams. Every change to a book bumps its msg id by one and goes out as a
 * `snap` delta with absolute level volumes (0 = level gone) and `msg_ids_start/end`, so a client
 * that holds snapshot msg_id N applies the delta starting at N + 1 and refetches on a gap (SPEC §4).
 */
import { formatUnits, type Clock, type Side } from '../core/index.ts';
import type { TradeEvent } from './events.ts';
import type { FaultController } from './faults.ts';
import { formatLevel, wsPair } from './format.ts';
import { pairLabelOf, type Market } from './markets.ts';
import type { LevelView, OrderBook } from './order-book.ts';
import { marketChannel, type WsHub } from './ws-hub.ts';

/** What the publisher reads and writes. */
export interface MarketDataDeps {
  readonly clock: Clock;
  readonly hub: WsHub;
  readonly faults: FaultController;
  book(market: Market): OrderBook;
}

function bboSide(level: LevelView | undefined, market: Market): Record<string, unknown> {
  if (level === undefined) return {};
  return { price: formatUnits(level.price, market.quote.decimals), volume: formatUnits(level.volume, market.base.decimals), orders: level.count };
}

/** Msg ids, snapshots and streams of every book. */
export class MarketData {
  private readonly msgIds = new Map<Market, number>();
  private readonly lastBbo = new Map<Market, string>();

  constructor(private readonly deps: MarketDataDeps) {}

  msgId(market: Market): number {
    return this.msgIds.get(market) ?? 0;
  }

  /** REST `/book/bbo` result. */
  bbo(market: Market): Record<string, unknown> {
    const book = this.deps.book(market);
    return {
      to_ecosystem_book: market.isEcosystemBook,
      bid: bboSide(book.levels('buy', 1)[0], market),
      ask: bboSide(book.levels('sell', 1)[0], market),
      pair: pairLabelOf(market),
    };
  }

  /** REST `/book/snapshot` result; `depth` < 0 = all levels. */
  snapshot(market: Market, depth: number): Record<string, unknown> {
    const book = this.deps.book(market);
    return {
      to_ecosystem_book: market.isEcosystemBook,
      levels: {
        bids: book.levels('buy', depth).map((level) => formatLevel(level, market)),
        asks: book.levels('sell', depth).map((level) => formatLevel(level, market)),
        msg_id: String(this.msgId(market)),
        time: this.deps.clock.nowMs(),
      },
      pair: pairLabelOf(market),
    };
  }

  /** Publishes the deltas of one processed request. */
  onBooksChanged(changes: ReadonlyMap<Market, ReadonlyArray<{ side: Side; price: bigint }>>): void {
    for (const [market, levels] of changes) {
      const book = this.deps.book(market);
      const id = this.msgId(market) + 1;
      this.msgIds.set(market, id);
      const pick = (side: Side): Array<[string, string, number]> =>
        levels.filter((level) => level.side === side).map((level) => formatLevel(book.levelAt(side, level.price), market));
      const event = {
        stream: 'snap',
        pair: wsPair(market),
        ecosystem: market.isEcosystemBook,
        // Digit strings like the REST snapshot's msg_id: akira-js compares them as bigints
        // (DepthBook `currentMsgId + 1n === msg_ids_start`), which a JSON number never equals.
        result: { bids: pick('buy'), asks: pick('sell'), msg_id: String(id), time: this.deps.clock.nowMs(), msg_ids_start: String(id), msg_ids_end: String(id) },
      };
      const faults = this.deps.faults;
      const struck = faults.strikesStreamOf(market.key);
      if (!struck || !faults.roll(faults.settings.snapSkipRate)) {
        this.deps.hub.publish(marketChannel('snap', market.key), event, { duplicate: struck && faults.roll(faults.settings.snapDuplicateRate) });
      }
      this.publishBbo(market, book);
    }
  }

  private publishBbo(market: Market, book: OrderBook): void {
    const bid = book.levels('buy', 1)[0];
    const ask = book.levels('sell', 1)[0];
    const result = {
      bid: bid === undefined ? [] : formatLevel(bid, market),
      ask: ask === undefined ? [] : formatLevel(ask, market),
    };
    const fingerprint = JSON.stringify(result);
    if (this.lastBbo.get(market) === fingerprint) return;
    this.lastBbo.set(market, fingerprint);
    this.deps.hub.publish(marketChannel('bbo', market.key), {
      stream: 'bbo',
      pair: wsPair(market),
      ecosystem: market.isEcosystemBook,
      result: { ...result, time: this.deps.clock.nowMs() },
    });
  }

  /** Publishes a trade print. */
  onTrade(trade: TradeEvent): void {
    const { market } = trade;
    this.deps.hub.publish(marketChannel('trade', market.key), {
      stream: 'trade',
      pair: wsPair(market),
      ecosystem: market.isEcosystemBook,
      result: {
        price: formatUnits(trade.price, market.quote.decimals),
        base_qty: formatUnits(trade.base, market.base.decimals),
        quote_qty: formatUnits(trade.quote, market.quote.decimals),
        is_sell_side: trade.takerSide === 'sell',
        time: trade.timeMs,
      },
    });
  }
}
