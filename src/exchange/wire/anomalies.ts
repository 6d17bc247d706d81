/**
 * Oddities in what the venue sends that the client reads past instead of dropping the message
 * (issue 11 item 3, docs/venue.md "parsing"): a frame that carries a fill must never be lost to
 * an unexpected detail. Each is logged the first time its kind is seen and counted, for the
 * `akira_mm_wire_anomalies_total{kind}` metric.
 */
import type { Logger } from '../../core/index.ts';

/** What was odd; a metric label, so never renamed. */
export type WireAnomalyKind =
  /** An amount with more decimals than its token: truncated, as both SDKs do. */
  | 'extra_decimals'
  /** An order status the client does not know: read as `ACC` (no progress) and healed from REST. */
  | 'unknown_status'
  /** A matcher result the client does not know: dropped from the report. */
  | 'unknown_matcher_result'
  /** A WS book side given as the REST form `{}` / `{price, volume, orders}` instead of a tuple. */
  | 'object_level'
  /** `/info/conversion_rate` answered `[]`: no rate from the venue this time. */
  | 'empty_conversion_rate'
  /** A `snap` msg id sent as a JSON number instead of digits. */
  | 'numeric_msg_id'
  /** A private event whose `stream` is the subscription name `fills_<account>`, not `fills`. */
  | 'fills_stream_name'
  /** A `/user/orders` item wrapped in `{"result": …}`, as the swagger's example shows: unwrapped. */
  | 'wrapped_order'
  /** A private frame without the fields a fill needs: skipped, and a heal is asked for at once. */
  | 'unreadable_fill'
  /** Any other frame that could not be read (market data, acks): skipped. */
  | 'unreadable_frame';

/** Every kind, for zero-initialised metrics. */
export const WIRE_ANOMALY_KINDS: readonly WireAnomalyKind[] = [
  'extra_decimals',
  'unknown_status',
  'unknown_matcher_result',
  'object_level',
  'empty_conversion_rate',
  'numeric_msg_id',
  'fills_stream_name',
  'wrapped_order',
  'unreadable_fill',
  'unreadable_frame',
];

/** Receives an anomaly: where (the field's path) and what was there. */
export type AnomalySink = (kind: WireAnomalyKind, field: string, detail: string) => void;

/** Counts anomalies per kind and logs the first of each kind (later ones only count). */
export class WireAnomalyCounter {
  readonly #counts = new Map<WireAnomalyKind, number>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** The sink to hand to parsers. */
  readonly sink: AnomalySink = (kind, field, detail) => {
    const count = (this.#counts.get(kind) ?? 0) + 1;
    this.#counts.set(kind, count);
    if (count === 1) this.#logger.warn({ kind, field, detail }, 'venue sent something unexpected; read past it (logged once per kind, counted in akira_mm_wire_anomalies_total)');
  };

  /** How many of each kind so far. */
  counts(): ReadonlyMap<WireAnomalyKind, number> {
    return this.#counts;
  }
}
