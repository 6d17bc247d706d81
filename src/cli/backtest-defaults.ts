/**
 * Every default of `akira-mm backtest`, in one place: `--help` prints them, the plan applies them.
 * Its own module so that `--help` loads nothing else (the engine and data layers load only for a
 * run).
 */
/** The defaults (documented in `--help` and docs/data-format.md). */
export const BACKTEST_DEFAULTS = {
  /** Conservative: the queue ahead of us shrinks only by trades (hftbacktest's RiskAdverse). */
  queue: 'risk-averse',
  /** Order entry and response latency each way, ms. */
  latencyMs: 25,
  latencyJitterMs: 0,
  /** Exchange → engine market-data delay, ms. */
  feedLatencyMs: 10,
  seed: 1,
  /** Base tokens held at start; the same value is held in quote. */
  initialBase: '1',
  /** Trade fees in pbips (1000 pbips = 10 bps): set your account's /user/user_info fees. */
  makerPbips: 100,
  takerPbips: 200,
  /** STRK base units per gas step until the recording says otherwise (SPEC §5). */
  gasPriceFri: '50000000000000',
  /** Quote tokens per STRK, to charge gas in quote. */
  strkPrice: '0.15',
  /**
   * Fewest decimals a token gets in the replay: a recording's scale can be coarse (LOBSTER sizes
   * are whole shares), and fees on receipt rounded up to a whole unit would swamp the PnL.
   */
  minDecimals: 8,
  /** Order latency to the hedge venue (`--hedge`), each way, ms: a desk near Binance's matching engine. */
  hedgeLatencyMs: 5,
  /** From the reference market's exchange time to the engine (`--reference`), ms: Binance's data crossing to where the bot runs. */
  referenceLatencyMs: 50,
  /** Error bars: block length (ms of simulated time) and replicates of the bootstrap, as BOOTSTRAP_DEFAULTS (a test holds them equal; this module stays light for --help). */
  bootstrapBlockMs: 60_000,
  bootstrapSamples: 1_000,
} as const;

