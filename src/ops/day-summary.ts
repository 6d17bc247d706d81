/**
 * The daily summary (ALERT_DAILY_SUMMARY_UTC): each pair's PnL, fills, volume, fees and position
 * over the day, the pairs' PnL together when they share a quote token, and the alerts raised.
 */
import { formatAmount, formatDuration, type AlertBody } from './alert.ts';
import type { OpsEvent, PairDay } from './events.ts';

/** The summary alert of `event`; `raised` counts the alerts raised since the last one, by kind. */
export function dailySummary(event: Extract<OpsEvent, { kind: 'daily-summary' }>, raised: ReadonlyMap<string, number>): AlertBody {
  const counts = [...raised.entries()].map(([kind, count]) => `${kind} ×${count}`).join(', ');
  const total = event.pairs.reduce((sum, pair) => sum + pair.pnlChangeQuote, 0);
  const quotes = new Set(event.pairs.map((pair) => pair.quote));
  return {
    kind: 'daily-summary',
    severity: 'info',
    headline: 'DAILY SUMMARY',
    lines: [
      `Over the last ${formatDuration(event.atMs - event.sinceMs)}:`,
      ...event.pairs.map(dayLine),
      ...(event.pairs.length > 1 && quotes.size === 1 ? [`All pairs: PnL ${formatAmount(total, 2, true)} ${[...quotes][0] ?? ''}`] : []),
      `Alerts raised: ${counts === '' ? 'none' : counts}`,
    ],
    facts: { sinceMs: event.sinceMs, pnlChangeQuote: total, alertsRaised: counts },
  };
}

function dayLine(day: PairDay): string {
  return (
    `${day.pair} (${day.state}): PnL ${formatAmount(day.pnlChangeQuote, 2, true)} ${day.quote} (${formatAmount(day.pnlQuote, 2, true)} since start), ` +
    `${day.fills} fill(s), ${formatAmount(day.volumeBase)} ${day.base} traded, fees ${formatAmount(day.feesQuote, 2)} ${day.quote}, position ${formatAmount(day.position, 6, true)} ${day.base}`
  );
}
