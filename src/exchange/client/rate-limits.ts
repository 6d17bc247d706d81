/**
 * 429 answers of the venue, counted (issue 25: "venue 429s are logged but not counted"). The REST
 * client waits each one out as the venue asks and logs it; this counter keeps the total and the
 * count per endpoint for metrics and for the notifier's storm alert (ALERT_429_STORM).
 */

/** Receives one 429 answer: `METHOD /path` of the request the venue refused. */
export type RateLimitSink = (endpoint: string) => void;

/** Counts 429 answers, in total and per endpoint. */
export class RateLimitCounter {
  #total = 0;
  readonly #byEndpoint = new Map<string, number>();

  /** The sink to hand to the REST client. */
  readonly sink: RateLimitSink = (endpoint) => {
    this.#total++;
    this.#byEndpoint.set(endpoint, (this.#byEndpoint.get(endpoint) ?? 0) + 1);
  };

  /** 429 answers so far (every one, those waited out included). */
  total(): number {
    return this.#total;
  }

  /** 429 answers so far by `METHOD /path`. */
  byEndpoint(): ReadonlyMap<string, number> {
    return this.#byEndpoint;
  }
}
