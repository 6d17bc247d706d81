/**
 * The matching side of the loopback trading venue: accounts with balances, orders by client id,
 * taker orders (MARKET, LIMIT IOC/FOK) matched against the replayed book, LIMIT GTC resting with
 * its balance locked, commission charged per trade (rounded up), and the user data events a
 * subscriber gets (`executionReport`, `outboundAccountPosition`). As strict as Binance may be:
 * lot, market-lot and notional filters, a duplicate client id of an open order, insufficient
 * balance (-2010 with Binance's messages), market orders that run out of book expire.
 *
 * Our fills take the recorded liquidity without removing it from the replay: the recording is
 * the market, our size is small beside it. Resting orders do not trade against later recorded
 * flow: the venue is a taker's venue (a hedge never rests).
 */
import { parseUnits, type Clock } from '../../../core/index.ts';
import { BINANCE_DECIMALS } from '../trading/rules.ts';
import type { AccountSpec } from './accounts.ts';
import { executionReport, formatUnits8 } from './trading-format.ts';

const UNIT = 10n ** BigInt(BINANCE_DECIMALS);

/** The symbol's rules in 8-decimal units. */
export interface DeskRules {
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  readonly tick: bigint;
  readonly step: bigint;
  readonly minQty: bigint;
  readonly maxQty: bigint;
  readonly minNotional: bigint;
  readonly maxNotional: bigint;
}

/** One level of the book, 8-decimal units. */
export interface DeskLevel {
  readonly price: bigint;
  readonly qty: bigint;
}

/** One trade of an order. */
export interface DeskTrade {
  readonly tradeId: number;
  readonly price: bigint;
  readonly qty: bigint;
  readonly commission: bigint;
  readonly commissionAsset: string;
}

/** An order at the desk. */
export interface DeskOrder {
  readonly orderId: number;
  readonly clientOrderId: string;
  readonly apiKey: string;
  readonly side: 'BUY' | 'SELL';
  readonly type: 'MARKET' | 'LIMIT';
  readonly timeInForce: 'GTC' | 'IOC' | 'FOK' | undefined;
  readonly price: bigint;
  readonly origQty: bigint;
  executedQty: bigint;
  cumQuote: bigint;
  status: 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';
  readonly timeMs: number;
  updateMs: number;
  readonly trades: DeskTrade[];
}

/** An order the desk was asked to place. */
export interface NewOrder {
  readonly side: 'BUY' | 'SELL';
  readonly type: 'MARKET' | 'LIMIT';
  readonly timeInForce: 'GTC' | 'IOC' | 'FOK' | undefined;
  readonly quantity: bigint;
  readonly price: bigint | undefined;
  readonly clientOrderId: string;
}

/** A refusal, as Binance words it. */
export interface DeskError {
  readonly status: number;
  readonly code: number;
  readonly msg: string;
}

/** Per-account state. */
interface Account {
  readonly spec: AccountSpec;
  readonly free: Map<string, bigint>;
  readonly locked: Map<string, bigint>;
}

/** Receives the user data events of one account (the `event` payloads). */
export type UserEventSink = (apiKey: string, event: Record<string, unknown>) => void;

/** Faults the desk applies to placements (tests and chaos). */
export interface DeskFaults {
  /** The next `count` placements are refused with -2010 and this message (nothing executes). */
  rejectNext(count: number, message?: string): void;
  /** The next `count` taker orders find no liquidity: they expire with nothing executed. */
  expireNext(count: number): void;
  /** Sets an account's free balance of an asset (a balance short), decimal text. */
  setBalance(apiKey: string, asset: string, amount: string): void;
}

const INSUFFICIENT = 'Account has insufficient balance for requested action.';

/** The trading desk of one symbol. */
export class TradingDesk {
  readonly #rules: DeskRules;
  readonly #clock: Clock;
  readonly #book: (side: 'buy' | 'sell') => readonly DeskLevel[] | undefined;
  readonly #accounts = new Map<string, Account>();
  readonly #orders = new Map<string, DeskOrder>();
  #sink: UserEventSink = () => undefined;
  #nextOrderId = 1;
  #nextTradeId = 1;
  #rejectNext: { count: number; message: string } = { count: 0, message: INSUFFICIENT };
  #expireNext = 0;
  /** Orders accepted, for tests: every placement the venue executed, in order. */
  readonly placed: DeskOrder[] = [];

  constructor(rules: DeskRules, accounts: readonly AccountSpec[], clock: Clock, book: (side: 'buy' | 'sell') => readonly DeskLevel[] | undefined) {
    this.#rules = rules;
    this.#clock = clock;
    this.#book = book;
    for (const spec of accounts) this.#accounts.set(spec.apiKey, { spec, free: new Map(spec.balances), locked: new Map() });
  }

  get rules(): DeskRules {
    return this.#rules;
  }

  /** Where user data events go. */
  setSink(sink: UserEventSink): void {
    this.#sink = sink;
  }

  /** The account of an API key. */
  account(apiKey: string): AccountSpec | undefined {
    return this.#accounts.get(apiKey)?.spec;
  }

  readonly faults: DeskFaults = {
    rejectNext: (count, message = INSUFFICIENT) => {
      this.#rejectNext = { count, message };
    },
    expireNext: (count) => {
      this.#expireNext = count;
    },
    setBalance: (apiKey, asset, amount) => {
      const account = this.#accounts.get(apiKey);
      if (account === undefined) throw new Error(`no account ${apiKey}`);
      account.free.set(asset, parseUnits(amount, BINANCE_DECIMALS));
      this.#emitBalances(account);
    },
  };

  /** Free and locked balances of every asset the account holds. */
  balances(apiKey: string): { asset: string; free: bigint; locked: bigint }[] {
    const account = this.#accounts.get(apiKey);
    if (account === undefined) return [];
    const assets = new Set([...account.free.keys(), ...account.locked.keys(), this.#rules.base, this.#rules.quote]);
    return [...assets].sort().map((asset) => ({ asset, free: account.free.get(asset) ?? 0n, locked: account.locked.get(asset) ?? 0n }));
  }

  /** The account's order with this client id (the latest, when ids were reused after fills). */
  order(apiKey: string, clientOrderId: string): DeskOrder | undefined {
    const order = this.#orders.get(`${apiKey}:${clientOrderId}`);
    return order;
  }

  /** The account's open orders. */
  openOrders(apiKey: string): DeskOrder[] {
    return [...this.#orders.values()].filter((order) => order.apiKey === apiKey && (order.status === 'NEW' || order.status === 'PARTIALLY_FILLED'));
  }

  /** Checks an order against the filters: the -1013 a real venue answers, or undefined. */
  checkFilters(order: NewOrder): DeskError | undefined {
    const rules = this.#rules;
    const filter = (name: string): DeskError => ({ status: 400, code: -1013, msg: `Filter failure: ${name}` });
    if (order.quantity <= 0n || order.quantity % rules.step !== 0n || order.quantity < rules.minQty || order.quantity > rules.maxQty) return filter(order.type === 'MARKET' ? 'MARKET_LOT_SIZE' : 'LOT_SIZE');
    if (order.price !== undefined && (order.price <= 0n || order.price % rules.tick !== 0n)) return filter('PRICE_FILTER');
    const reference = order.price ?? this.#averagePrice();
    if (reference !== undefined && rules.minNotional > 0n && (order.quantity * reference) / UNIT < rules.minNotional) return filter('NOTIONAL');
    return undefined;
  }

  /**
   * Places an order for `apiKey`, matching it at once when it takes liquidity.
   * @returns the order, or Binance's refusal.
   */
  place(apiKey: string, request: NewOrder): DeskOrder | DeskError {
    const account = this.#accounts.get(apiKey);
    if (account === undefined) return { status: 401, code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' };
    const filterError = this.checkFilters(request);
    if (filterError !== undefined) return filterError;
    const existing = this.#orders.get(`${apiKey}:${request.clientOrderId}`);
    if (existing !== undefined && (existing.status === 'NEW' || existing.status === 'PARTIALLY_FILLED')) return { status: 400, code: -2010, msg: 'Duplicate order sent.' };
    if (this.#rejectNext.count > 0) {
      this.#rejectNext.count--;
      return { status: 400, code: -2010, msg: this.#rejectNext.message };
    }
    const takes = request.type === 'MARKET' || request.timeInForce !== 'GTC';
    const expire = takes && this.#expireNext > 0;
    if (expire) this.#expireNext--;
    const plan = expire ? [] : this.#walk(request);
    const walkedQty = plan.reduce((sum, take) => sum + take.qty, 0n);
    if (request.timeInForce === 'FOK' && walkedQty < request.quantity) plan.length = 0;
    const cost = plan.reduce((sum, take) => sum + (take.qty * take.price) / UNIT, 0n);
    // What must be free now: everything a buy could spend (resting part included), or the base a sell gives.
    const rules = this.#rules;
    const restingQty = takes ? 0n : request.quantity - walkedQty;
    const needQuote = request.side === 'BUY' ? cost + (request.price === undefined ? 0n : (restingQty * request.price) / UNIT) : 0n;
    const needBase = request.side === 'SELL' ? (takes ? walkedQty : request.quantity) : 0n;
    if ((account.free.get(rules.quote) ?? 0n) < needQuote || (account.free.get(rules.base) ?? 0n) < needBase) {
      return { status: 400, code: -2010, msg: INSUFFICIENT };
    }
    const now = this.#clock.nowMs();
    const order: DeskOrder = {
      orderId: this.#nextOrderId++,
      clientOrderId: request.clientOrderId,
      apiKey,
      side: request.side,
      type: request.type,
      timeInForce: request.timeInForce,
      price: request.price ?? 0n,
      origQty: request.quantity,
      executedQty: 0n,
      cumQuote: 0n,
      status: 'NEW',
      timeMs: now,
      updateMs: now,
      trades: [],
    };
    this.#orders.set(`${apiKey}:${request.clientOrderId}`, order);
    this.placed.push(order);
    this.#emitExecution(order, 'NEW', undefined);
    for (const take of plan) this.#trade(account, order, take.price, take.qty);
    if (takes) {
      if (order.executedQty < order.origQty) {
        order.status = 'EXPIRED';
        this.#emitExecution(order, 'EXPIRED', undefined);
      }
    } else if (order.executedQty < order.origQty) {
      this.#lock(account, order);
    }
    this.#emitBalances(account);
    return order;
  }

  /** Cancels an open order. */
  cancel(apiKey: string, clientOrderId: string): DeskOrder | DeskError {
    const account = this.#accounts.get(apiKey);
    const order = this.#orders.get(`${apiKey}:${clientOrderId}`);
    if (account === undefined || order === undefined || (order.status !== 'NEW' && order.status !== 'PARTIALLY_FILLED')) return { status: 400, code: -2011, msg: 'Unknown order sent.' };
    this.#unlock(account, order);
    order.status = 'CANCELED';
    order.updateMs = this.#clock.nowMs();
    this.#emitExecution(order, 'CANCELED', undefined);
    this.#emitBalances(account);
    return order;
  }

  /** The levels a taker order takes, best first. */
  #walk(request: NewOrder): { price: bigint; qty: bigint }[] {
    const levels = this.#book(request.side === 'BUY' ? 'sell' : 'buy') ?? [];
    const takes: { price: bigint; qty: bigint }[] = [];
    let remaining = request.quantity;
    for (const level of levels) {
      if (remaining <= 0n) break;
      if (request.price !== undefined && (request.side === 'BUY' ? level.price > request.price : level.price < request.price)) break;
      const qty = level.qty < remaining ? level.qty - (level.qty % this.#rules.step) : remaining;
      if (qty <= 0n) continue;
      takes.push({ price: level.price, qty });
      remaining -= qty;
    }
    return takes;
  }

  #trade(account: Account, order: DeskOrder, price: bigint, qty: bigint): void {
    const rules = this.#rules;
    const quote = (qty * price) / UNIT;
    const rate = account.spec.takerCommissionE8;
    const isBuy = order.side === 'BUY';
    const commission = ((isBuy ? qty : quote) * rate + UNIT - 1n) / UNIT;
    const add = (asset: string, amount: bigint): void => {
      account.free.set(asset, (account.free.get(asset) ?? 0n) + amount);
    };
    if (isBuy) {
      add(rules.base, qty - commission);
      add(rules.quote, -quote);
    } else {
      add(rules.base, -qty);
      add(rules.quote, quote - commission);
    }
    order.executedQty += qty;
    order.cumQuote += quote;
    order.status = order.executedQty === order.origQty ? 'FILLED' : 'PARTIALLY_FILLED';
    order.updateMs = this.#clock.nowMs();
    const trade: DeskTrade = { tradeId: this.#nextTradeId++, price, qty, commission, commissionAsset: isBuy ? rules.base : rules.quote };
    order.trades.push(trade);
    this.#emitExecution(order, 'TRADE', trade);
  }

  #lock(account: Account, order: DeskOrder): void {
    const rules = this.#rules;
    const rest = order.origQty - order.executedQty;
    const [asset, amount] = order.side === 'BUY' ? [rules.quote, (rest * order.price) / UNIT] : [rules.base, rest];
    account.free.set(asset, (account.free.get(asset) ?? 0n) - amount);
    account.locked.set(asset, (account.locked.get(asset) ?? 0n) + amount);
  }

  #unlock(account: Account, order: DeskOrder): void {
    const rules = this.#rules;
    const rest = order.origQty - order.executedQty;
    const [asset, amount] = order.side === 'BUY' ? [rules.quote, (rest * order.price) / UNIT] : [rules.base, rest];
    account.free.set(asset, (account.free.get(asset) ?? 0n) + amount);
    account.locked.set(asset, (account.locked.get(asset) ?? 0n) - amount);
  }

  /** The price a market order's notional is checked at: the book's mid. */
  #averagePrice(): bigint | undefined {
    const bid = this.#book('buy')?.[0]?.price;
    const ask = this.#book('sell')?.[0]?.price;
    return bid === undefined || ask === undefined ? undefined : (bid + ask) / 2n;
  }

  #emitExecution(order: DeskOrder, execution: 'NEW' | 'TRADE' | 'EXPIRED' | 'CANCELED', trade: DeskTrade | undefined): void {
    this.#sink(order.apiKey, executionReport(order, this.#rules.symbol, execution, trade, this.#clock.nowMs(), this.#nextTradeId * 2 + order.orderId));
  }

  #emitBalances(account: Account): void {
    const now = this.#clock.nowMs();
    this.#sink(account.spec.apiKey, {
      e: 'outboundAccountPosition',
      E: now,
      u: now,
      B: [this.#rules.base, this.#rules.quote].map((asset) => ({ a: asset, f: formatUnits8(account.free.get(asset) ?? 0n), l: formatUnits8(account.locked.get(asset) ?? 0n) })),
    });
  }
}

