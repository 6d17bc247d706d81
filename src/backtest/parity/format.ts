/**
 * `akira-mm parity`'s outputs: the side-by-side table for a terminal, the JSON object for scripts
 * (its keys are a contract: add, never rename) and the HTML section of the report.
 */
import { escapeHtml, tableHtml } from '../../html/index.ts';
import { CAUSE_TEXT, type ParityComparison, type SideFigures } from './compare.ts';

/** What the comparison is read against: the backtest's PnL interval, moved onto the comparison's PnL. */
export interface ParityVerdict {
  /** The backtest's 95 % interval of its PnL, shifted by (its PnL as compared here − its own pnl_quote); null when the run gives none. */
  readonly backtestPnlCi95: readonly [number, number] | null;
  readonly livePnlInside: boolean | null;
  /** The latency the backtest ran with (each way), ms, and where it came from. */
  readonly latencyMs: number;
  readonly latencySource: 'measured' | 'flag';
  /** Added to the journal's times to put them on the backtest's clock, ms. */
  readonly clockOffsetMs: number;
  /** The recording's clock the backtest replayed it on: its receive times, or its exchange times. */
  readonly clock: 'receive' | 'exchange';
}

const ROWS = (units: string): readonly { label: string; value: (side: SideFigures) => string }[] => [
  { label: 'orders buy / sell', value: (s) => `${s.orders.buy} / ${s.orders.sell}` },
  { label: 'fills buy / sell', value: (s) => `${s.fills.buy} / ${s.fills.sell}` },
  { label: 'volume (base)', value: (s) => s.volumeBase.toFixed(6) },
  { label: `PnL (${units})`, value: (s) => s.pnl.total.toFixed(4) },
  { label: `  spread (${units})`, value: (s) => s.pnl.spread.toFixed(4) },
  { label: `  inventory (${units})`, value: (s) => s.pnl.inventory.toFixed(4) },
  { label: `  fees (${units})`, value: (s) => s.pnl.fees.toFixed(4) },
  { label: 'markout 1 s (bps)', value: (s) => bps(s.markoutsBps['1s']) },
  { label: 'markout 10 s (bps)', value: (s) => bps(s.markoutsBps['10s']) },
  { label: 'markout 60 s (bps)', value: (s) => bps(s.markoutsBps['60s']) },
  { label: 'orders per fill', value: (s) => (s.ordersPerFill === null ? '–' : s.ordersPerFill.toFixed(2)) },
  { label: 'median ack (ms)', value: (s) => (s.medianAckMs === null ? '–' : String(s.medianAckMs)) },
];

function bps(value: number | null): string {
  return value === null ? '–' : value.toFixed(2);
}

function share(value: number | null): string {
  return value === null ? '–' : `${(value * 100).toFixed(1)} %`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The table's rows: label, live, backtest. */
export function parityRows(comparison: ParityComparison, quote: string): string[][] {
  return ROWS(quote).map((row) => [row.label, row.value(comparison.live), row.value(comparison.backtest)]);
}

/** The side-by-side text. */
export function formatParity(comparison: ParityComparison, verdict: ParityVerdict, quote: string): string {
  const rows = [['', 'live', 'backtest'], ...parityRows(comparison, quote)];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] as string).length)));
  const line = (row: readonly string[]): string => `  ${(row[0] as string).padEnd(widths[0] as number)}  ${(row[1] as string).padStart(widths[1] as number)}  ${(row[2] as string).padStart(widths[2] as number)}`;
  const out = [`parity ${comparison.pair}: ${iso(comparison.startMs)} → ${iso(comparison.endMs)}; backtest latency ${verdict.latencyMs} ms each way (${verdict.latencySource === 'measured' ? "the session's median ack / 2" : '--latency-ms'}); the recording replayed on its ${verdict.clock} clock, the journal's moved ${verdict.clockOffsetMs} ms onto it`];
  out.push(...rows.map(line));
  out.push(
    `  fills matched one to one: ${comparison.matched} (${share(comparison.matchedShare.live)} of live's, ${share(comparison.matchedShare.backtest)} of the backtest's) within ${comparison.tolerance.timeMs} ms and ${comparison.tolerance.ticks} ticks` +
      (comparison.matchedOffset.meanMs === null ? '' : `; mean offset ${comparison.matchedOffset.meanMs.toFixed(0)} ms, ${(comparison.matchedOffset.meanTicks ?? 0).toFixed(2)} ticks; fees of the matched fills differ by ${comparison.matchedFeeDifference.toFixed(6)} ${quote}`),
  );
  out.push(
    verdict.backtestPnlCi95 === null
      ? "  backtest PnL interval: none (the run is shorter than twenty bootstrap blocks; lower --bootstrap-block-ms)"
      : `  backtest PnL 95 % interval [${verdict.backtestPnlCi95[0].toFixed(4)}, ${verdict.backtestPnlCi95[1].toFixed(4)}] ${quote}: live's PnL is ${verdict.livePnlInside === true ? 'inside' : 'OUTSIDE'}`,
  );
  out.push('  fill rate by distance from the mid when sent (filled / accepted orders):');
  for (const row of comparison.distance) {
    if (row.live.orders === 0 && row.backtest.orders === 0) continue;
    out.push(`    ${row.label.padEnd(12)} live ${row.live.filled}/${row.live.orders}  backtest ${row.backtest.filled}/${row.backtest.orders}`);
  }
  const causes = comparison.causes.filter((cause) => cause.live + cause.backtest > 0);
  if (causes.length > 0) {
    out.push('  unmatched fills by cause (count live / backtest; their PnL at 60 s, live minus backtest):');
    for (const cause of causes) out.push(`    ${cause.cause.padEnd(15)} ${cause.live} / ${cause.backtest}  ${cause.pnlQuote.toFixed(4)} ${quote}`);
    out.push('  unmatched fills:');
    for (const entry of comparison.unmatched) {
      out.push(
        `    ${entry.side.padEnd(8)} ${iso(entry.fill.timeMs)} ${entry.fill.side.padEnd(4)} ${entry.fill.qty} @ ${entry.fill.price}  ${entry.cause}${entry.offsetMs === undefined ? '' : ` (${entry.offsetMs > 0 ? '+' : ''}${entry.offsetMs} ms)`}  ${entry.pnlQuote.toFixed(4)} ${quote}`,
      );
    }
  } else {
    out.push('  every fill matched');
  }
  return `${out.join('\n')}\n`;
}

/** The JSON object (`--json`). */
export function parityJson(comparison: ParityComparison, verdict: ParityVerdict): Record<string, unknown> {
  const side = (s: SideFigures) => ({
    orders_buy: s.orders.buy,
    orders_sell: s.orders.sell,
    fills_buy: s.fills.buy,
    fills_sell: s.fills.sell,
    volume_base: s.volumeBase,
    pnl_quote: s.pnl.total,
    pnl_spread_quote: s.pnl.spread,
    pnl_inventory_quote: s.pnl.inventory,
    fees_quote: s.pnl.fees,
    markout_1s_bps: s.markoutsBps['1s'],
    markout_10s_bps: s.markoutsBps['10s'],
    markout_60s_bps: s.markoutsBps['60s'],
    orders_per_fill: s.ordersPerFill,
    median_ack_ms: s.medianAckMs,
  });
  return {
    pair: comparison.pair,
    start_ms: comparison.startMs,
    end_ms: comparison.endMs,
    latency_ms: verdict.latencyMs,
    latency_source: verdict.latencySource,
    clock: verdict.clock,
    clock_offset_ms: verdict.clockOffsetMs,
    live: side(comparison.live),
    backtest: side(comparison.backtest),
    matched_fills: comparison.matched,
    matched_share_live: comparison.matchedShare.live,
    matched_share_backtest: comparison.matchedShare.backtest,
    matched_mean_offset_ms: comparison.matchedOffset.meanMs,
    matched_mean_offset_ticks: comparison.matchedOffset.meanTicks,
    matched_fee_difference_quote: comparison.matchedFeeDifference,
    backtest_pnl_ci95: verdict.backtestPnlCi95,
    live_pnl_inside_ci95: verdict.livePnlInside,
    tolerance: { time_ms: comparison.tolerance.timeMs, ticks: comparison.tolerance.ticks, tick: comparison.tolerance.tick },
    causes: comparison.causes.map((cause) => ({ cause: cause.cause, live: cause.live, backtest: cause.backtest, pnl_quote: cause.pnlQuote })),
    fill_rate_by_distance: comparison.distance.map((row) => ({ band: row.label, live_orders: row.live.orders, live_filled: row.live.filled, backtest_orders: row.backtest.orders, backtest_filled: row.backtest.filled })),
    unmatched: comparison.unmatched.map((entry) => ({
      side: entry.side,
      time_ms: entry.fill.timeMs,
      fill_side: entry.fill.side,
      price: entry.fill.price,
      qty: entry.fill.qty,
      fee_quote: entry.fill.feeQuote,
      cause: entry.cause,
      ...(entry.offsetMs === undefined ? {} : { offset_ms: entry.offsetMs }),
      pnl_quote: entry.pnlQuote,
    })),
  };
}

/** The report's section: `<section id="parity">`, self-contained (the page's house style applies). */
export function paritySectionHtml(comparison: ParityComparison, verdict: ParityVerdict, quote: string): string {
  const table = tableHtml([['', 'live', 'backtest'], ...parityRows(comparison, quote)].map((row) => row.map(escapeHtml)), { header: true, className: 'grid' });
  const rate = tableHtml(
    [
      ['distance from the mid', 'live filled / orders', 'backtest filled / orders'],
      ...comparison.distance.filter((row) => row.live.orders + row.backtest.orders > 0).map((row) => [row.label, `${row.live.filled} / ${row.live.orders}`, `${row.backtest.filled} / ${row.backtest.orders}`]),
    ].map((row) => row.map(escapeHtml)),
    { header: true, className: 'grid' },
  );
  const causes = tableHtml(
    [['cause', 'live', 'backtest', `PnL at 60 s, live − backtest (${quote})`], ...comparison.causes.map((cause) => [CAUSE_TEXT[cause.cause], String(cause.live), String(cause.backtest), cause.pnlQuote.toFixed(4)])].map((row) => row.map(escapeHtml)),
    { header: true, className: 'grid' },
  );
  const unmatched = tableHtml(
    [
      ['run', 'time (UTC)', 'side', 'qty', 'price', 'cause', `PnL (${quote})`],
      ...comparison.unmatched.map((entry) => [
        entry.side,
        iso(entry.fill.timeMs),
        entry.fill.side,
        String(entry.fill.qty),
        String(entry.fill.price),
        `${entry.cause}${entry.offsetMs === undefined ? '' : ` (${entry.offsetMs > 0 ? '+' : ''}${entry.offsetMs} ms)`}`,
        entry.pnlQuote.toFixed(4),
      ]),
    ].map((row) => row.map(escapeHtml)),
    { header: true, className: 'grid' },
  );
  const interval =
    verdict.backtestPnlCi95 === null
      ? 'The backtest gives no PnL interval (fewer than twenty bootstrap blocks).'
      : `Backtest PnL 95 % interval [${verdict.backtestPnlCi95[0].toFixed(4)}, ${verdict.backtestPnlCi95[1].toFixed(4)}] ${quote}: live's PnL is ${verdict.livePnlInside === true ? 'inside' : 'outside'} it.`;
  return `<section id="parity" data-matched="${comparison.matched}" data-matched-live="${comparison.matchedShare.live ?? ''}" data-matched-backtest="${comparison.matchedShare.backtest ?? ''}" data-unmatched="${comparison.unmatched.length}">
<h2>Parity: live against the backtest</h2>
<p class="muted">${escapeHtml(`${comparison.pair}, ${iso(comparison.startMs)} → ${iso(comparison.endMs)}; the backtest ran with ${verdict.latencyMs} ms latency each way (${verdict.latencySource}). Fills matched one to one by side, price (within ${comparison.tolerance.ticks} ticks) and time (within ${comparison.tolerance.timeMs} ms); docs/parity.md.`)}</p>
${table}
<p id="parity-matched">${escapeHtml(`Fills matched one to one: ${comparison.matched} (${share(comparison.matchedShare.live)} of live's, ${share(comparison.matchedShare.backtest)} of the backtest's). ${interval}`)}</p>
<h2>Fill rate by distance from the mid</h2>
${rate}
<h2>Unmatched fills by cause</h2>
${causes}
${comparison.unmatched.length === 0 ? '<p>Every fill matched.</p>' : unmatched}
</section>`;
}
