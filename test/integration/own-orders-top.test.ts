/**
 * The top of book the engine receives is the market without us: our own orders never show in it,
 * not while a placement is in flight (the bbo can show it before the depth stream and before its
 * OPEN report), and not after a cancel (the CLOSED report can come before the depth delta that
 * removes it), and never empty because our orders just left the top of the local book. A top that
 * showed our own quote moved the fair price with it, and the bot chased itself: on a thin book one
 * book change set off five replacements (tick-to-wire bench, 2026-11-24).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock, createRng, createSilentLogger, type BestBidOffer } from '../../src/core/index.ts';
import { createLiveVenue, type LiveVenue } from '../../src/exchange/index.ts';
import type { SimHandle } from '../../src/sim/index.ts';
import { ETH, QUIET_LISTENER, USDC, counterparty, devVenueConfig, eventually, place, startTestSim } from './support.ts';

let sim: SimHandle | undefined;
const venues: LiveVenue[] = [];
afterEach(async () => {
  for (const venue of venues.splice(0)) await venue.stop();
  await sim?.stop();
  sim = undefined;
});

describe('the top of book without our own orders', () => {
  it('never shows our quotes, while they are placed, rest, or are cancelled, and never goes empty for it', async () => {
    sim = await startTestSim();
    const other = await counterparty(sim, 1);
    venues.push(other);
    await place(other, { side: 'buy', priceUnits: 2990n * USDC, qtyUnits: ETH / 10n, postOnly: true });
    await place(other, { side: 'sell', priceUnits: 3010n * USDC, qtyUnits: ETH / 10n, postOnly: true });

    const tops: BestBidOffer[] = [];
    const bot = createLiveVenue(devVenueConfig(sim, 0, 0), { clock: new LiveClock(), rng: createRng(7), logger: createSilentLogger() });
    venues.push(bot);
    await bot.start({ ...QUIET_LISTENER, onTopOfBook: (top) => tops.push(top) });
    await eventually(() => tops.some((top) => top.bidPriceUnits === 2990n * USDC && top.askPriceUnits === 3010n * USDC), 10_000, 'the market top');
    // From here on (before it, the book was still loading) every top must be the market's.
    tops.length = 0;

    // Inside the spread, one side then the other, placed and cancelled back to back (the races).
    for (let round = 0; round < 6; round++) {
      const bid = await place(bot, { side: 'buy', priceUnits: 2999_250000n + BigInt(round) * 10_000n, qtyUnits: ETH / 20n, postOnly: true });
      const ask = await place(bot, { side: 'sell', priceUnits: 3000_750000n + BigInt(round) * 10_000n, qtyUnits: ETH / 20n, postOnly: true });
      expect(await bot.cancelOrder(bid)).toEqual({ kind: 'accepted' });
      expect(await bot.cancelOrder(ask)).toEqual({ kind: 'accepted' });
    }
    await eventually(async () => (await bot.fetchOpenOrders()).length === 0, 10_000, 'our orders gone');
    await sim.idle();
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(tops.length).toBeGreaterThan(1);
    const showingUs = tops.filter((top) => top.bidPriceUnits !== 2990n * USDC || top.askPriceUnits !== 3010n * USDC);
    expect(showingUs.map((top) => `bid ${top.bidPriceUnits} ask ${top.askPriceUnits}`)).toEqual([]);
  }, 60_000);
});
