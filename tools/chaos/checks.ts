/**
 * The invariants a chaos run checks once the faults are over, against the exchange's own state:
 * the bot's books (its `/metrics`) equal the exchange's balances, every order of ours on the
 * exchange has a journal intent, and each bot process counted exactly the fills the exchange made
 * on its orders (see `invariants.ts`).
 */
import { readFileSync } from 'node:fs';
import type { Clock } from '../../src/core/index.ts';
import { parseJournal, type JournalRecord } from '../../src/engine/index.ts';
import type { SimHandle, SimOrder } from '../../src/sim/index.ts';
import { metricSum, type BotProcess, type MetricSample } from './bot-process.ts';
import type { InvariantName } from './invariants.ts';

export const BASE = 'ETH';
export const QUOTE = 'USDC';

/** A pair the bot quotes in a chaos run. */
export interface ChaosPair {
  readonly base: string;
  readonly quote: string;
}

/** The one pair of a single-pair run. */
export const SINGLE_PAIR: readonly ChaosPair[] = [{ base: BASE, quote: QUOTE }];

/** Every token of the pairs, once. */
export function tokensOf(pairs: readonly ChaosPair[]): string[] {
  return [...new Set(pairs.flatMap((pair) => [pair.base, pair.quote]))];
}

/** Bot and exchange figures must agree to this many tokens (far below one fee or one lot). */
const TOKEN_TOLERANCE = 1e-9;

/** Records a broken invariant. */
export type Violate = (invariant: InvariantName, detail: string) => void;

export function countAll(sim: SimHandle, address: bigint): { orders: number; filled: number } {
  return sim.ordersOf(address).reduce(
    (acc, order) => ({ orders: acc.orders + 1, filled: acc.filled + (order.filledBase > 0n ? 1 : 0) }),
    { orders: 0, filled: 0 },
  );
}

export function readJournal(path: string): JournalRecord[] {
  try {
    return parseJournal(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
}

/** Waits until the bot's inventory and the exchange's balances stop moving; returns the last scrape. */
export async function quiesce(
  bot: BotProcess,
  sim: SimHandle,
  address: bigint,
  clock: Clock,
  sleep: (ms: number) => Promise<void>,
  pairs: readonly ChaosPair[] = SINGLE_PAIR,
): Promise<MetricSample | undefined> {
  const deadline = clock.nowMs() + 8_000;
  let previous = '';
  let stableFor = 0;
  let last: MetricSample | undefined;
  await sleep(500);
  while (clock.nowMs() < deadline) {
    await sim.idle();
    last = await bot.scrape();
    const fingerprint = JSON.stringify([
      metricSum(last, 'akira_mm_inventory_base'),
      metricSum(last, 'akira_mm_inventory_quote'),
      metricSum(last, 'akira_mm_filled_base_total'),
      metricSum(last, 'akira_mm_account_balance'),
      ...tokensOf(pairs).map((token) => exchangeTotal(sim, address, token).toString()),
    ]);
    stableFor = fingerprint === previous ? stableFor + 1 : 0;
    previous = fingerprint;
    if (stableFor >= 3) return last;
    await sleep(250);
  }
  return last;
}

function exchangeTotal(sim: SimHandle, address: bigint, token: string): bigint {
  const holding = sim.balancesOf(address).get(token);
  return holding === undefined ? 0n : holding.free + holding.locked;
}

/** Base units in tokens, at the token's decimals on the sim's chain. */
function tokens(sim: SimHandle, units: bigint, token: string): number {
  const decimals = sim.chain.tokens.get(token)?.decimals;
  if (decimals === undefined) throw new Error(`the embedded exchange lists no token ${token}`);
  return Number(units) / 10 ** decimals;
}

/**
 * The bot's books equal the exchange's free + locked balances: one pair's inventory gauges; with
 * several pairs on the account, the account ledger (`akira_mm_account_balance{token}`) for every
 * token of every pair (a token shared by pairs, USDC, included).
 */
export function checkInventory(sim: SimHandle, address: bigint, sample: MetricSample | undefined, violate: Violate, pairs: readonly ChaosPair[] = SINGLE_PAIR): void {
  if (sample === undefined) {
    violate('inventory-matches-exchange', 'could not read the bot\'s inventory (metrics unreachable)');
    return;
  }
  if (pairs.length > 1) {
    for (const token of tokensOf(pairs)) {
      const exchange = tokens(sim, exchangeTotal(sim, address, token), token);
      const series = [...sample.keys()].some((key) => key.startsWith('akira_mm_account_balance{') && key.includes(`token="${token}"`));
      const bot = metricSum(sample, 'akira_mm_account_balance', `token="${token}"`);
      if (!series) violate('inventory-matches-exchange', `${token}: the bot exports no account balance (akira_mm_account_balance{token="${token}"})`);
      else if (Math.abs(exchange - bot) > TOKEN_TOLERANCE) violate('inventory-matches-exchange', `${token}: account ledger ${bot}, exchange ${exchange}`);
    }
    return;
  }
  for (const [token, metric] of [
    [BASE, 'akira_mm_inventory_base'],
    [QUOTE, 'akira_mm_inventory_quote'],
  ] as const) {
    const exchange = tokens(sim, exchangeTotal(sim, address, token), token);
    const bot = metricSum(sample, metric);
    if (Math.abs(exchange - bot) > TOKEN_TOLERANCE) violate('inventory-matches-exchange', `${token}: bot ${bot}, exchange ${exchange}`);
  }
}

/**
 * Fills: every exchange order of ours has a journal intent (nothing placed behind the journal's
 * back); per pair, the last bot process counted exactly the fills the exchange made on the orders
 * it placed for that pair; earlier (killed) processes never counted more than the exchange made
 * (no phantoms). The account's journal names each record's pair; each pair's engine writes its
 * own `start` record.
 */
export function checkFills(
  journal: readonly (JournalRecord & { readonly pair?: string })[],
  sim: SimHandle,
  address: bigint,
  bots: readonly BotProcess[],
  lastSamples: ReadonlyMap<BotProcess, MetricSample>,
  finalSample: MetricSample | undefined,
  violate: Violate,
  pairs: readonly ChaosPair[] = SINGLE_PAIR,
): void {
  const allIntents = new Set<bigint>();
  for (const record of journal) if (record.t === 'intent') allIntents.add(BigInt(record.orderId));
  const orders = sim.ordersOf(address);
  const unjournaled = orders.filter((order) => !allIntents.has(order.hash));
  if (unjournaled.length > 0) violate('no-duplicate-intent', `${unjournaled.length} order(s) on the exchange have no journal intent`);
  for (const pair of pairs) {
    const name = `${pair.base}/${pair.quote}`;
    const records = journal.filter((record) => record.pair === name || (pairs.length === 1 && record.pair === undefined));
    const pairOrders = orders.filter((order) => order.market.base.symbol === pair.base && order.market.quote.symbol === pair.quote);
    checkPairFills(sim, records, pairOrders, pairs.length === 1 ? '' : `${name}: `, pairs.length === 1 ? [] : [`pair="${name}"`], pair.base, bots, lastSamples, finalSample, violate);
  }
}

function checkPairFills(
  sim: SimHandle,
  journal: readonly JournalRecord[],
  orders: readonly SimOrder[],
  prefix: string,
  labels: readonly string[],
  base: string,
  bots: readonly BotProcess[],
  lastSamples: ReadonlyMap<BotProcess, MetricSample>,
  finalSample: MetricSample | undefined,
  violate: Violate,
): void {
  const segments: Set<bigint>[] = [];
  for (const record of journal) {
    if (record.t === 'start') segments.push(new Set());
    if (record.t === 'intent') segments.at(-1)?.add(BigInt(record.orderId));
  }
  const filledBy = (hashes: ReadonlySet<bigint>, side: 'buy' | 'sell'): number =>
    tokens(
      sim,
      orders.filter((order) => order.side === side && hashes.has(order.hash)).reduce((sum, order) => sum + order.filledBase, 0n),
      base,
    );
  // A process killed while booting writes no `start` record: segments then pair with processes
  // only from the end (the last process always started: it quoted and was stopped gracefully).
  const offset = bots.length - segments.length;
  for (const [index, process] of bots.entries()) {
    if (index < offset) continue;
    const segment = segments[index - offset] ?? new Set<bigint>();
    const isLast = index === bots.length - 1;
    const sample = isLast ? finalSample : lastSamples.get(process);
    for (const side of ['buy', 'sell'] as const) {
      const exchange = filledBy(segment, side);
      const bot = metricSum(sample, 'akira_mm_filled_base_total', [`side="${side}"`, ...labels]);
      if (isLast && Math.abs(exchange - bot) > TOKEN_TOLERANCE) {
        violate('no-unaccounted-fill', `${prefix}last bot process counted ${bot} ${base} ${side} filled; the exchange filled ${exchange} on its orders`);
      }
      if (!isLast && offset === 0 && bot > exchange + TOKEN_TOLERANCE) {
        violate('no-unaccounted-fill', `${prefix}bot process ${index + 1} counted ${bot} ${base} ${side} filled, more than the exchange's ${exchange}`);
      }
    }
  }
}
