/**
 * `npx tsx tools/tables/taker-sweep.ts FILE.data…`: how far past the touch a recording's own
 * takers sweep (docs/thin-venue.md, "Price-elastic takers"). For every trade with a known side,
 * its price against the touch just before it (the book rebuilt from the recording's depth as the
 * backtest replays it), in bps: a buy at p against the ask a, (p − a)/a; a sell at p against the
 * bid b, (b − p)/b; 0 at the touch, negative inside it (the book had already moved). Prints one
 * markdown row per file: trades, the share at or inside the touch, quantiles, and the fit the doc
 * quotes: an atom at 0 plus an exponential tail whose mean is the mean of the positive sweeps.
 */
import { basename } from 'node:path';
import { OrderBook, parseUnits, type Side, type TickerRules } from '../../src/core/index.ts';
import { createRecordedEventSource, readRecordingHeader } from '../../src/backtest/data/index.ts';
import { quantile } from '../../src/backtest/bootstrap.ts';

/** The sweeps of one recording, bps, one per trade with a known side and a two-sided book. */
async function sweepsOf(path: string): Promise<{ symbol: string; sweeps: Float64Array; notionalPast: number; notional: number }> {
  const header = readRecordingHeader(path);
  const rules: TickerRules = {
    base: 'BASE',
    quote: 'QUOTE',
    isEcosystemBook: true,
    priceTick: parseUnits(header.tick, header.priceDecimals),
    qtyStep: parseUnits(header.lot, header.qtyDecimals),
    minQty: parseUnits(header.lot, header.qtyDecimals),
    baseDecimals: header.qtyDecimals,
    quoteDecimals: header.priceDecimals,
  };
  const book = new OrderBook();
  const sweeps: number[] = [];
  let notional = 0;
  let notionalPast = 0;
  await createRecordedEventSource([path], rules).replay({
    advance: () => undefined,
    clear: () => {
      book.clear();
      return undefined;
    },
    depth: (side: Side, priceTicks: number, qtyLots: number) => {
      book.setLevel(side, priceTicks, qtyLots);
      return undefined;
    },
    gasPrice: () => undefined,
    trade: (aggressor: Side | undefined, priceTicks: number, qtyLots: number) => {
      const bid = book.bestBidPrice();
      const ask = book.bestAskPrice();
      if (aggressor === undefined || bid === undefined || ask === undefined || bid >= ask) return undefined;
      const sweep = aggressor === 'buy' ? ((priceTicks - ask) / ask) * 10_000 : ((bid - priceTicks) / bid) * 10_000;
      sweeps.push(sweep);
      notional += priceTicks * qtyLots;
      if (sweep > 0) notionalPast += priceTicks * qtyLots;
      return undefined;
    },
  });
  return { symbol: header.symbol, sweeps: Float64Array.from(sweeps).sort(), notionalPast, notional };
}

function round(value: number): string {
  return Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(3);
}

async function main(paths: readonly string[]): Promise<number> {
  if (paths.length === 0) {
    process.stderr.write('usage: npx tsx tools/tables/taker-sweep.ts FILE.data…\n');
    return 2;
  }
  process.stdout.write('| recording | trades | at or inside the touch | past it (share of notional) | p50 / p90 / p99 / max, bp | mean of the positive sweeps, bp | fit |\n|---|---:|---:|---:|---|---:|---|\n');
  for (const path of paths) {
    const { symbol, sweeps, notionalPast, notional } = await sweepsOf(path);
    const past = sweeps.filter((sweep) => sweep > 0);
    const atTouch = 1 - past.length / Math.max(1, sweeps.length);
    const meanPast = past.length === 0 ? 0 : past.reduce((sum, sweep) => sum + sweep, 0) / past.length;
    const q = (share: number): string => round(quantile(sweeps, share));
    process.stdout.write(
      `| ${symbol} (${basename(path)}) | ${sweeps.length} | ${(atTouch * 100).toFixed(1)} % | ${((1 - atTouch) * 100).toFixed(1)} % (${((notionalPast / Math.max(1, notional)) * 100).toFixed(1)} %) | ${q(0.5)} / ${q(0.9)} / ${q(0.99)} / ${round(sweeps.at(-1) ?? 0)} | ${round(meanPast)} | 0 with p = ${atTouch.toFixed(3)}, else exponential of mean ${round(meanPast)} bp |\n`,
    );
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
