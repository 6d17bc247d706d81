/**
 * The daemon against the embedded exchange over loopback (issue 4): it quotes both sides within
 * the ticker rules, fills change its inventory exactly, the kill switch and the dead-man cancel
 * everything, a stop (SIGTERM) leaves zero open orders, and a restart cancels or adopts what an
 * earlier run left behind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveVenue } from '../../src/exchange/index.ts';
import type { SimHandle } from '../../src/sim/index.ts';
import { ETH, USDC, counterparty, eventually, place, startBot, startTestSim } from './support.ts';

const TICK = 10_000n; // 0.01 USDC
const STEP = 10n ** 14n; // 0.0001 ETH
const MIN = 10n ** 15n; // 0.001 ETH

let sim: SimHandle | undefined;
const venues: LiveVenue[] = [];

afterEach(async () => {
  for (const venue of venues.splice(0)) await venue.stop();
  await sim?.stop();
  sim = undefined;
});

/** A background market from dev account 2: 1 ETH bid at 2990 and ask at 3010. */
async function makeMarket(s: SimHandle): Promise<LiveVenue> {
  const maker = await counterparty(s, 2);
  venues.push(maker);
  await place(maker, { side: 'buy', priceUnits: 2990n * USDC, qtyUnits: ETH, postOnly: true });
  await place(maker, { side: 'sell', priceUnits: 3010n * USDC, qtyUnits: ETH, postOnly: true });
  return maker;
}

function sides(s: SimHandle, account: bigint) {
  const open = s.openOrdersOf(account);
  return { bids: open.filter((o) => !o.request.flags.isSellSide), asks: open.filter((o) => o.request.flags.isSellSide), all: open };
}

describe('daemon ↔ embedded exchange', () => {
  it('quotes both sides inside the rules, books fills exactly, and leaves nothing open after SIGTERM', async () => {
    sim = await startTestSim();
    await makeMarket(sim);
    const bot = await startBot(sim);
    const account = sim.accounts[0]!.address;
    const s = sim;
    const quoted = await eventually(() => {
      const q = sides(s, account);
      return q.bids.length > 0 && q.asks.length > 0 ? q : undefined;
    }, 20_000, 'a two-sided quote');
    for (const order of quoted.all) {
      expect(order.request.price % TICK).toBe(0n);
      expect(order.request.baseQty % STEP).toBe(0n);
      expect(order.request.baseQty >= MIN).toBe(true);
      expect(order.request.flags.postOnly).toBe(true);
    }
    const bestBid = quoted.bids.reduce((best, o) => (o.request.price > best ? o.request.price : best), 0n);
    const bestAsk = quoted.asks.reduce((best, o) => (o.request.price < best ? o.request.price : best), 2n ** 128n);
    expect(bestBid < bestAsk).toBe(true);
    expect(bestBid > 2990n * USDC && bestAsk < 3010n * USDC).toBe(true);

    // Dev account 1 sells into our bid: the bot buys, and its books must match the exchange's.
    const taker = await counterparty(sim, 1);
    venues.push(taker);
    const ethBefore = sim.balancesOf(account).get('ETH')!;
    await place(taker, { side: 'sell', priceUnits: bestBid, qtyUnits: 2n * 10n ** 16n, postOnly: false });
    await eventually(() => bot.daemon.engine.status().pnl.fills >= 1, 20_000, 'the fill to reach the bot');
    const ethAfter = sim.balancesOf(account).get('ETH')!;
    expect(ethAfter.free + ethAfter.locked > ethBefore.free + ethBefore.locked).toBe(true);
    await eventually(() => {
      const held = sim!.balancesOf(account).get('ETH')!;
      return Math.abs(bot.daemon.engine.status().baseBalance - Number(held.free + held.locked) / 1e18) < 1e-12;
    }, 10_000, 'the bot inventory to equal the exchange balance');

    expect(await bot.stop()).toBe(0);
    await sim.idle();
    expect(sim.openOrdersOf(account)).toHaveLength(0);
  }, 90_000);

  it('cancels leftovers of an earlier run at start (STARTUP_ORDERS=cancel), or adopts them and keeps their queue place (adopt)', async () => {
    sim = await startTestSim();
    await makeMarket(sim);
    const account = sim.accounts[0]!.address;
    const s = sim;
    const isOpen = (id: string): boolean => s.openOrdersOf(account).some((o) => `0x${o.hash.toString(16)}` === id);
    // "An earlier run" left the very bid the bot wants: 0.05 ETH at mid 3000 − (5 bps + the sim's
    // 2 bps maker fee, inside the spread) = 2997.90.
    const earlier = await counterparty(sim, 0);
    venues.push(earlier);
    const leftover = { side: 'buy' as const, priceUnits: 2997_900000n, qtyUnits: 5n * 10n ** 16n, postOnly: true };
    const first = await place(earlier, leftover);
    await sim.idle();
    expect(isOpen(first)).toBe(true);

    const cancelling = await startBot(sim, { STARTUP_ORDERS: 'cancel' });
    await eventually(() => (!isOpen(first) && sides(s, account).bids.length > 0) || undefined, 20_000, 'the leftover replaced by a fresh bid');
    expect(await cancelling.stop()).toBe(0);
    await sim.idle();
    expect(sim.openOrdersOf(account)).toHaveLength(0);

    const second = await place(earlier, leftover);
    const adopting = await startBot(sim, { STARTUP_ORDERS: 'adopt' });
    await eventually(() => sides(s, account).asks.length > 0 || undefined, 20_000, 'the bot quoting');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(isOpen(second)).toBe(true);
    expect(sides(s, account).bids.map((o) => `0x${o.hash.toString(16)}`)).toEqual([second]);
    expect(await adopting.stop()).toBe(0);
    await sim.idle();
    expect(sim.openOrdersOf(account)).toHaveLength(0);
  }, 90_000);

  it('kill switch: a drawdown past RISK_MAX_DRAWDOWN cancels everything and halts', async () => {
    sim = await startTestSim();
    const maker = await makeMarket(sim);
    await place(maker, { side: 'buy', priceUnits: 2900n * USDC, qtyUnits: 5n * ETH, postOnly: true });
    const bot = await startBot(sim, { RISK_MAX_DRAWDOWN: '0.5', LADDER_ORDER_SIZE: '0.5' });
    const account = sim.accounts[0]!.address;
    const s = sim;
    await eventually(() => sides(s, account).bids.length > 0 || undefined, 20_000, 'a bid');
    // Dev account 3 dumps 2 ETH at 2950: it takes our bid and the 2990 bid, and the market
    // settles at 2900/2950, far below what we paid.
    const dumper = await counterparty(sim, 3);
    venues.push(dumper);
    await place(dumper, { side: 'sell', priceUnits: 2950n * USDC, qtyUnits: 2n * ETH, postOnly: false });
    await eventually(() => bot.daemon.engine.status().state === 'halted' || undefined, 20_000, 'the kill switch');
    await sim.idle();
    await eventually(() => s.openOrdersOf(account).length === 0 || undefined, 10_000, 'every order cancelled');
    expect(bot.daemon.engine.status().haltReason).toBeDefined();
    await bot.stop();
  }, 90_000);

  it('dead-man: a feed silent for STALE_FEED_MS cancels every order', async () => {
    sim = await startTestSim();
    await makeMarket(sim);
    const bot = await startBot(sim, { STALE_FEED_MS: '1500' });
    const account = sim.accounts[0]!.address;
    const s = sim;
    await eventually(() => s.openOrdersOf(account).length > 0 || undefined, 20_000, 'quotes');
    // Every market-data event now closes its socket instead of arriving.
    sim.faults.set({ wsDropRate: 1 });
    await eventually(() => (bot.daemon.engine.status().state === 'paused' && s.openOrdersOf(account).length === 0) || undefined, 20_000, 'the dead-man');
    sim.faults.reset();
    await bot.stop();
    await sim.idle();
    expect(sim.openOrdersOf(account)).toHaveLength(0);
  }, 90_000);
});
