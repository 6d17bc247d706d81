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
