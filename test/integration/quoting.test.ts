/**
 * Quoting against the embedded exchange (issue "quoting"): with any funded wallet every strategy
 * quotes both sides (inventory is position, not a share of portfolio value), and the inventory
 * cap holds when a sweep fills every resting bid at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getChain } from '../../src/core/index.ts';
import { devAccounts } from '../../src/exchange/signer/dev-accounts.ts';
import type { LiveVenue } from '../../src/exchange/index.ts';
import { fundDevAccounts, startSim, type SimHandle } from '../../src/sim/index.ts';
import { ETH, USDC, counterparty, eventually, place, startBot } from './support.ts';

let sim: SimHandle | undefined;
const venues: LiveVenue[] = [];
const bots: { stop(): Promise<number> }[] = [];

afterEach(async () => {
  for (const bot of bots.splice(0)) await bot.stop();
  for (const venue of venues.splice(0)) await venue.stop();
  await sim?.stop();
  sim = undefined;
});

/** A sim whose dev account 0 (the bot's) holds `eth` ETH and `usdc` USDC: far from value-balanced. */
async function simWithWallet(eth: string, usdc: string): Promise<SimHandle> {
  const chain = getChain('mainnet');
  const accounts = fundDevAccounts(devAccounts(0, 4), chain).map((account, index) =>
    index === 0 ? { ...account, balances: new Map([['ETH', BigInt(eth) * ETH], ['USDC', BigInt(usdc) * USDC], ['STRK', 10_000n * ETH]]) } : account,
  );
  return startSim({ seed: 0, flow: false, accounts, signatureWorkers: 0 });
}

function sides(s: SimHandle): { bids: number; asks: number; bidBase: bigint } {
  const open = s.openOrdersOf(s.accounts[0]!.address);
  const bids = open.filter((o) => !o.request.flags.isSellSide);
  return { bids: bids.length, asks: open.length - bids.length, bidBase: bids.reduce((sum, o) => sum + o.request.baseQty - o.filledBase, 0n) };
}

describe('quoting with any funded wallet', () => {
  it.each(['ladder', 'avellaneda-stoikov', 'glft'])('%s quotes both sides from 50 ETH and 200,000 USDC (worth 150,000 vs 200,000)', async (strategy) => {
    sim = await simWithWallet('50', '200000');
    const maker = await counterparty(sim, 2);
    venues.push(maker);
    await place(maker, { side: 'buy', priceUnits: 2990n * USDC, qtyUnits: ETH, postOnly: true });
    await place(maker, { side: 'sell', priceUnits: 3010n * USDC, qtyUnits: ETH, postOnly: true });
    const s = sim;
    bots.push(await startBot(sim, { STRATEGY: strategy }));
    await eventually(() => (sides(s).bids > 0 && sides(s).asks > 0) || undefined, 20_000, `${strategy} quoting both sides`);
  }, 60_000);
});

describe('the inventory cap under a sweep', () => {
  it('keeps the position inside RISK_MAX_INVENTORY_BASE when one sell takes every resting bid at once', async () => {
    sim = await simWithWallet('50', '200000');
    const maker = await counterparty(sim, 2);
    venues.push(maker);
    await place(maker, { side: 'buy', priceUnits: 2990n * USDC, qtyUnits: ETH, postOnly: true });
    await place(maker, { side: 'sell', priceUnits: 3010n * USDC, qtyUnits: ETH, postOnly: true });
    const s = sim;
    const account = s.accounts[0]!.address;
    const ethHeld = (): bigint => {
      const held = s.balancesOf(account).get('ETH')!;
      return held.free + held.locked;
    };
    const startEth = ethHeld();
    // Three bid levels of 0.05 wanted, but a cap of 0.1: at most two may rest, all counted.
    bots.push(await startBot(sim, { LADDER_LEVELS: '3', LADDER_LEVEL_SPACING_BPS: '2', RISK_MAX_INVENTORY_BASE: '0.1' }));
    await eventually(() => (sides(s).bids >= 2 && sides(s).asks > 0) || undefined, 20_000, 'two bids resting');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(sides(s).bidBase <= ETH / 10n).toBe(true);
    // A taker sells through every bid of ours down to the maker's 2990 bid.
    const taker = await counterparty(sim, 1);
    venues.push(taker);
    await place(taker, { side: 'sell', priceUnits: 2990n * USDC, qtyUnits: ETH / 2n, postOnly: false });
    await s.idle();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const position = ethHeld() - startEth;
    expect(position > 0n).toBe(true);
    expect(position <= ETH / 10n).toBe(true);
    // Still capped afterwards: whatever rests on the bid side fits in the room left.
    expect(sides(s).bidBase + position <= ETH / 10n).toBe(true);
  }, 60_000);
});
