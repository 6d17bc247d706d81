/**
 * An outside market the synthetic flow follows instead of its random walk (`akira-mm sim
 * --flow-follow`): the CLI builds one from a Binance-protocol feed; the sim only asks it for a
 * price, so it knows nothing of Binance.
 */

/** A token's USD price from elsewhere. */
export interface PriceFollower {
  /** The sim token whose USD price follows (e.g. ETH). */
  readonly token: string;
  /** The followed market's current price, USD per token; undefined while it has none (the walk goes on from the last price). */
  priceUsd(): number | undefined;
}

/** What a followed market tells the reference-driven flow as it happens. */
export interface ReferenceMarketListener {
  /** A new touch, quote per base (USD for a stable quote), with its sizes in base tokens when the market gives them. */
  onTop(bidPrice: number, askPrice: number, bidQty?: number, askQty?: number): void;
  /** A trade; `aggressor` undefined when the market does not say who took. */
  onTrade(aggressor: 'buy' | 'sell' | undefined, price: number, qty: number): void;
}

/**
 * A followed market whose touch and trades the sim can hear (`--flow reference`): the flow's
 * takers copy its trades and arbitrage its touch against the venue's book.
 */
export interface ReferenceMarket extends PriceFollower {
  /** Starts telling `listener`, with the touch as it stands at once when there is one; returns the unsubscribe. */
  subscribe(listener: ReferenceMarketListener): () => void;
}
