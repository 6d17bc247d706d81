import { describe, expect, it } from 'vitest';
import { constantLatency } from '../../../src/backtest/latency.ts';
import { riskAverseQueue } from '../../../src/backtest/queue-model.ts';
import { ReplayClock } from '../../../src/backtest/replay-clock.ts';
import { ReplayVenue } from '../../../src/backtest/replay-venue.ts';
import { ReplayAccount } from '../../../src/backtest/account/replay-account.ts';
import { EventScheduler } from '../../../src/backtest/scheduler.ts';
import { DEFAULT_THIN_VENUE, LAYERAKIRA_FEES, summarizeThinFills, thinExchangeFactory } from '../../../src/backtest/thin/index.ts';
import { DEFAULT_COMPETING_MAKER, createRng, hasErrorCode, type BestBidOffer, type OrderReport, type Side, type VenueListener, type VenueTrade } from '../../../src/core/index.ts';
import { feeOnReceipt } from '../../../src/engine/index.ts';
import { ETH_USDC, eth } from '../../engine/fixtures.ts';

const START_MS = 1_700_000_000_000;
const USDC = (amount: number): bigint => BigInt(amount) * 10n ** 6n;

/** A replay venue whose exchange is a thin venue, and what its listener heard. */
function thinVenue(options: { arbitrage: boolean; share: number; latencyMs?: number }) {
  const clock = new ReplayClock(START_MS);
  const heard = { tops: [] as BestBidOffer[], trades: [] as VenueTrade[], reports: [] as OrderReport[] };
  const venue = new ReplayVenue({
    rules: ETH_USDC,
    clock,
    makerFeePbips: LAYERAKIRA_FEES.makerPbips,
    takerFeePbips: LAYERAKIRA_FEES.takerPbips,
    steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 },
    gasPriceUnits: 5n * 10n ** 13n,
    quotePerStrk: 0.15,
    latency: constantLatency(options.latencyMs ?? 0),
    feedLatencyMs: 0,
    queue: riskAverseQueue,
    scheduler: new EventScheduler(clock),
    account: new ReplayAccount(new Map([['ETH', eth(200)], ['USDC', USDC(1_000_000)]])),
    exchange: thinExchangeFactory({
      ...DEFAULT_THIN_VENUE,
      competitor: { ...DEFAULT_COMPETING_MAKER, depthShare: 0 },
      rules: ETH_USDC,
      uninformed: { ...DEFAULT_THIN_VENUE.uninformed, share: options.share },
      arbitrage: { ...DEFAULT_THIN_VENUE.arbitrage, enabled: options.arbitrage },
      rng: createRng(3).fork('thin'),
    }),
  });
  const listener: VenueListener = {
    onTopOfBook: (top) => heard.tops.push(top),
    onTrade: (trade) => heard.trades.push(trade),
    onOrderReport: (report) => heard.reports.push(report),
    onGasQuote: () => undefined,
    onResync: () => undefined,
    onFeedStatus: () => undefined,
  };
  let touch: { bid: number; ask: number } | undefined;
  const drive = {
    venue,
    heard,
    at(timeMs: number) {
      const pending = venue.scheduler.runUntil(timeMs, () => undefined);
      if (pending !== undefined) throw new Error('the scheduler waited');
    },
    referenceTop(bid: number, ask: number) {
      if (touch !== undefined) {
        venue.onDepth('buy', touch.bid, 0);
        venue.onDepth('sell', touch.ask, 0);
      }
      venue.onDepth('buy', bid, 1_000);
      venue.onDepth('sell', ask, 1_000);
      venue.endOfMessage();
      touch = { bid, ask };
    },
    /** Sends an order and runs time until its answer is back (entry and response latency). */
    async place(side: Side, priceTicks: number, lots: number) {
      const signed = await venue.signOrder({ side, priceUnits: BigInt(priceTicks) * ETH_USDC.priceTick, qtyUnits: BigInt(lots) * ETH_USDC.qtyStep, postOnly: true });
      const outcome = venue.submitOrder(signed);
      drive.at(clock.nowMs() + 2 * (options.latencyMs ?? 0));
      return { orderId: signed.orderId, outcome: await outcome };
    },
  };
  return { ...drive, start: () => venue.start(listener) };
}

describe('a replay venue over a thin exchange', () => {
  it("settles uninformed fills at LayerAkira's maker fee: the account gains exactly half the spread minus fees on a still reference", async () => {
    const v = thinVenue({ arbitrage: false, share: 0.3 });
    await v.start();
    v.at(START_MS);
    v.referenceTop(299_990, 300_010);
    const mid = 300_000;
    const halfSpreadTicks = 15;
    expect((await v.place('buy', mid - halfSpreadTicks, 500_000)).outcome.kind).toBe('accepted');
    expect((await v.place('sell', mid + halfSpreadTicks, 500_000)).outcome.kind).toBe('accepted');
    const draws = createRng(21);
    for (let i = 1; i <= 2_000; i++) {
      v.at(START_MS + 10 * i);
      const side: Side = draws.next() < 0.5 ? 'buy' : 'sell';
      v.venue.onTrade(side, side === 'buy' ? mid + 10 : mid - 10, 1 + draws.int(300));
    }
    const fills = v.venue.fills;
    expect(fills.length).toBeGreaterThan(300);
    expect(summarizeThinFills(fills)).toMatchObject({ uninformed_fills: fills.length, arb_fills: 0, pickoff_cost_quote: 0 });
    // Expected, exactly (×10¹⁸): Σ half-spread × size − fees valued at the mid (fees as the venue charges them, per fill).
    const midUnits = BigInt(mid) * ETH_USDC.priceTick;
    const scale = 10n ** 18n;
    let expected = 0n;
    for (const fill of fills) {
      const qtyUnits = BigInt(Math.round(fill.size * 1e4)) * ETH_USDC.qtyStep;
      const quoteUnits = ((midUnits + (fill.side === 'buy' ? -1n : 1n) * BigInt(halfSpreadTicks) * ETH_USDC.priceTick) * qtyUnits) / scale;
      const fee = feeOnReceipt(fill.side === 'buy' ? qtyUnits : quoteUnits, LAYERAKIRA_FEES.makerPbips);
      expected += BigInt(halfSpreadTicks) * ETH_USDC.priceTick * qtyUnits - (fill.side === 'buy' ? midUnits * fee : fee * scale);
    }
    const balances = (await v.venue.fetchAccount()).balances;
    const base = balances.get('ETH')?.total ?? 0n;
    const quote = balances.get('USDC')?.total ?? 0n;
    const pnlScaled = (quote - USDC(1_000_000)) * scale + (base - eth(200)) * midUnits;
    expect(pnlScaled).toBe(expected);
    expect(v.venue.costs().gasQuote).toBe(0);
  });

  it('publishes the background maker as the top of book, venue trades (not the reference) as trades, and arbitrage fills tagged with their pick-off cost', async () => {
    const v = thinVenue({ arbitrage: true, share: 0, latencyMs: 5 });
    await v.start();
    v.at(START_MS);
    v.referenceTop(299_990, 300_010);
    v.at(START_MS + 1_000);
    expect(v.heard.tops.at(-1)).toMatchObject({ bidPriceUnits: 299_700n * ETH_USDC.priceTick, askPriceUnits: 300_300n * ETH_USDC.priceTick });
    const { orderId } = await v.place('sell', 300_020, 10);
    v.venue.onTrade('buy', 300_010, 50);
    expect(v.heard.trades).toEqual([]);
    // The reference jumps 30 bps through our ask; arbitrageurs come 50 ms later.
    v.at(START_MS + 2_000);
    v.referenceTop(300_920, 300_940);
    v.at(START_MS + 2_050);
    const fill = v.venue.fills.at(-1);
    expect(fill).toMatchObject({ orderId, side: 'sell', isMaker: true, timeMs: START_MS + 2_050 });
    expect(fill?.tag?.counterparty).toBe('arbitrage');
    expect(fill?.tag?.referenceLossQuote).toBeCloseTo((300_930 - 300_020) * 10 * 1e-6, 9);
    expect(summarizeThinFills(v.venue.fills)).toEqual({ uninformed_fills: 0, arb_fills: 1, background_maker_fills: 0, pickoff_cost_quote: fill?.tag?.referenceLossQuote });
    expect(v.heard.trades.at(0)).toMatchObject({ priceUnits: 300_020n * ETH_USDC.priceTick, qtyUnits: 10n * ETH_USDC.qtyStep, aggressor: 'buy', timeMs: START_MS + 2_050 });
    v.at(START_MS + 2_100);
    expect(v.heard.reports.at(-1)).toMatchObject({ orderId, status: 'FILLED' });
  });

  it('refuses bad thin-venue options before a run, naming the field', () => {
    let caught: unknown;
    try {
      thinExchangeFactory({ ...DEFAULT_THIN_VENUE, rules: ETH_USDC, rng: createRng(1), arbitrage: { ...DEFAULT_THIN_VENUE.arbitrage, edgeBps: -1 } });
    } catch (error) {
      caught = error;
    }
    expect(hasErrorCode(caught, 'CORE_INVALID_OPTION')).toBe(true);
    expect(String(caught)).toContain('arbitrage.edgeBps (--thin-arb-edge-bps) = -1');
  });
});
