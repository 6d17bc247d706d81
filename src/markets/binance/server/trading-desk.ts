/**
 * The matching side of the loopback trading venue: accounts with balances, orders by id and by
 * client id (filled and canceled ones stay queryable, as at Binance), taker orders (MARKET by
 * quantity or by `quoteOrderQty`, LIMIT IOC/FOK, the crossing part of a LIMIT GTC) matched
 * against the replayed book, LIMIT GTC and LIMIT_MAKER resting with their balance locked,
 * commission charged per trade (rounded up), and the user data events a subscriber gets
 * (`executionReport`, `outboundAccountPosition`). As strict as Binance may be: lot, market-lot and
 * notional filters, a duplicate client id of an open order, insufficient balance and a
 * LIMIT_MAKER that would take (-2010 with Binance's messages), market orders that run out of book
 * expire.
 *
 * Our fills take the recorded liquidity without removing it from the replay: the recording is
 * the market, our size is small beside it. Resting orders do not trade against later recorded
 * flow: the venue is a taker's venue (a hedge never rests).
 */
import { parseUnits, type Clock } from '../../../core/index.ts';
import { BINANCE_DECIMALS } from '../trading/rules.ts';
import type { AccountSpec } from './accounts.ts';
import type { DeskOrder, DeskOrderType, DeskTrade } from './desk-order.ts';
import { quoteOf, takesForQuantity, takesForQuote, wouldCross, type DeskLevel, type Take } from './desk-matching.ts';
import { executionReport, formatUnits8 } from './trading-format.ts';

export type { DeskLevel } from './desk-matching.ts';

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

/** An order the desk was asked to place: exactly one of `quantity` and `quoteQuantity`. */
export interface NewOrder {
  readonly side: 'BUY' | 'SELL';
  readonly type: DeskOrderType;
  readonly timeInForce: 'GTC' | 'IOC' | 'FOK' | undefined;
  readonly quantity: bigint | undefined;
  /** `quoteOrderQty` (MARKET only); absent for an order by quantity. */
  readonly quoteQuantity?: bigint | undefined;
  readonly price: bigint | undefined;
  readonly clientOrderId: string;
  /** Default: the symbol's default mode (EXPIRE_MAKER). */
  readonly selfTradePreventionMode?: string | undefined;
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
const rejected = (msg: string): DeskError => ({ status: 400, code: -2010, msg });
const isOpen = (order: DeskOrder): boolean => order.status === 'NEW' || order.status === 'PARTIALLY_FILLED';

/** The trading desk of one symbol. */
export class TradingDesk {
  readonly #rules: DeskRules;
  readonly #clock: Clock;
  readonly #book: (side: 'buy' | 'sell') => readonly DeskLevel[] | undefined;
  readonly #accounts = new Map<string, Account>();
  /** The latest order of each `apiKey:clientOrderId`. */
  readonly #byClientId = new Map<string, DeskOrder>();
  readonly #byId = new Map<number, DeskOrder>();
  #sink: UserEventSink = () => undefined;
  #nextOrderId = 1;
  #nextTradeId = 1;
  #rejectNext: { count: number; message: string } = { count: 0, message: INSUFFICIENT };
  #expireNext = 0;
  /** Every placement the venue accepted, in order (tests; `allOrders` and `myTrades` read it). */
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
    return this.#byClientId.get(`${apiKey}:${clientOrderId}`);
  }

  /** The account's order with this id, whatever its status. */
  orderById(apiKey: string, orderId: number): DeskOrder | undefined {
    const order = this.#byId.get(orderId);
    return order?.apiKey === apiKey ? order : undefined;
  }

  /** The account's open orders, oldest first. */
  openOrders(apiKey: string): DeskOrder[] {
    return this.placed.filter((order) => order.apiKey === apiKey && isOpen(order));
  }

  /** Every order of the account, oldest first. */
  orders(apiKey: string): DeskOrder[] {
    return this.placed.filter((order) => order.apiKey === apiKey);
  }

  /** Checks an order against the filters: the -1013 a real venue answers, or undefined. */
  checkFilters(order: NewOrder): DeskError | undefined {
    const rules = this.#rules;
    const filter = (name: string): DeskError => ({ status: 400, code: -1013, msg: `Filter failure: ${name}` });
    if (order.price !== undefined && (order.price <= 0n || order.price % rules.tick !== 0n)) return filter('PRICE_FILTER');
    if (order.quantity === undefined) {
      // By quote amount: the NOTIONAL minimum applies to the amount (applyMinToMarket).
      if (rules.minNotional > 0n && (order.quoteQuantity ?? 0n) < rules.minNotional) return filter('NOTIONAL');
      return undefined;
    }
    if (order.quantity <= 0n || order.quantity % rules.step !== 0n || order.quantity < rules.minQty || order.quantity > rules.maxQty) return filter(order.type === 'MARKET' ? 'MARKET_LOT_SIZE' : 'LOT_SIZE');
    const reference = order.price ?? this.#averagePrice();
    if (reference !== undefined && rules.minNotional > 0n && quoteOf(order.quantity, reference) < rules.minNotional) return filter('NOTIONAL');
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
    const existing = this.#byClientId.get(`${apiKey}:${request.clientOrderId}`);
    if (existing !== undefined && isOpen(existing)) return rejected('Duplicate order sent.');
    if (this.#rejectNext.count > 0) {
      this.#rejectNext.count--;
      return rejected(this.#rejectNext.message);
    }
    const buys = request.side === 'BUY';
    const opposite = this.#book(buys ? 'sell' : 'buy') ?? [];
    if (request.type === 'LIMIT_MAKER' && wouldCross(buys, request.price ?? 0n, opposite[0])) return rejected('Order would immediately match and take.');
    const takes = request.type === 'MARKET' || request.timeInForce === 'IOC' || request.timeInForce === 'FOK';
    const expire = takes && this.#expireNext > 0;
    if (expire) this.#expireNext--;
    const plan = expire || request.type === 'LIMIT_MAKER' ? [] : this.#plan(request, opposite);
    const walkedQty = plan.reduce((sum, take) => sum + take.qty, 0n);
    if (request.quantity === undefined && !expire && walkedQty < this.#rules.minQty) return rejected('Order book liquidity is less than LOT_SIZE filter minimum quantity.');
    const quantity = request.quantity ?? walkedQty;
    if (request.timeInForce === 'FOK' && walkedQty < quantity) plan.length = 0;
    const cost = plan.reduce((sum, take) => sum + quoteOf(take.qty, take.price), 0n);
    // What must be free now: everything a buy could spend (resting part included), or the base a sell gives.
    const restingQty = takes ? 0n : quantity - walkedQty;
    const needQuote = buys ? cost + (request.price === undefined ? 0n : quoteOf(restingQty, request.price)) : 0n;
    const needBase = buys ? 0n : takes ? walkedQty : quantity;
    if ((account.free.get(this.#rules.quote) ?? 0n) < needQuote || (account.free.get(this.#rules.base) ?? 0n) < needBase) return rejected(INSUFFICIENT);
    const now = this.#clock.nowMs();
    const order: DeskOrder = {
      orderId: this.#nextOrderId++,
      clientOrderId: request.clientOrderId,
      apiKey,
      side: request.side,
      type: request.type,
      timeInForce: request.timeInForce,
      price: request.price ?? 0n,
      origQty: quantity,
      quoteOrderQty: request.quoteQuantity ?? 0n,
      executedQty: 0n,
      cumQuote: 0n,
      status: 'NEW',
      selfTradePreventionMode: request.selfTradePreventionMode ?? 'EXPIRE_MAKER',
      timeMs: now,
      updateMs: now,
      trades: [],
    };
    this.#byClientId.set(`${apiKey}:${request.clientOrderId}`, order);
    this.#byId.set(order.orderId, order);
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

  /**
   * Cancels an open order; `cancelClientOrderId` names the cancel (the `c` of its
   * executionReport, the `clientOrderId` of the answer).
   * @returns the order, or -2011 "Unknown order sent." when it is not open (filled, canceled, absent).
   */
  cancel(apiKey: string, order: DeskOrder, cancelClientOrderId: string): DeskOrder | DeskError {
    const account = this.#accounts.get(apiKey);
    if (account === undefined || order.apiKey !== apiKey || !isOpen(order)) return { status: 400, code: -2011, msg: 'Unknown order sent.' };
    this.#unlock(account, order);
    order.status = 'CANCELED';
    order.updateMs = this.#clock.nowMs();
    this.#emitExecution(order, 'CANCELED', undefined, cancelClientOrderId);
    this.#emitBalances(account);
    return order;
  }

  /** The levels a taker order takes, best first. */
  #plan(request: NewOrder, opposite: readonly DeskLevel[]): Take[] {
    const buys = request.side === 'BUY';
    if (request.quantity === undefined) return takesForQuote(opposite, request.quoteQuantity ?? 0n, this.#rules.step);
    return takesForQuantity(opposite, buys, request.quantity, request.price, this.#rules.step);
  }

  #trade(account: Account, order: DeskOrder, price: bigint, qty: bigint): void {
    const rules = this.#rules;
    const quote = quoteOf(qty, price);
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
    const trade: DeskTrade = { tradeId: this.#nextTradeId++, price, qty, commission, commissionAsset: isBuy ? rules.base : rules.quote, timeMs: order.updateMs };
    order.trades.push(trade);
    this.#emitExecution(order, 'TRADE', trade);
  }

  /** The asset and amount the unfilled rest of a resting order holds. */
  #held(order: DeskOrder): [string, bigint] {
    const rest = order.origQty - order.executedQty;
    return order.side === 'BUY' ? [this.#rules.quote, quoteOf(rest, order.price)] : [this.#rules.base, rest];
  }

  #lock(account: Account, order: DeskOrder): void {
    const [asset, amount] = this.#held(order);
    account.free.set(asset, (account.free.get(asset) ?? 0n) - amount);
    account.locked.set(asset, (account.locked.get(asset) ?? 0n) + amount);
  }

  #unlock(account: Account, order: DeskOrder): void {
    const [asset, amount] = this.#held(order);
    account.free.set(asset, (account.free.get(asset) ?? 0n) + amount);
    account.locked.set(asset, (account.locked.get(asset) ?? 0n) - amount);
  }

  /** The price a market order's notional is checked at: the book's mid. */
  #averagePrice(): bigint | undefined {
    const bid = this.#book('buy')?.[0]?.price;
    const ask = this.#book('sell')?.[0]?.price;
    return bid === undefined || ask === undefined ? undefined : (bid + ask) / 2n;
  }

  #emitExecution(order: DeskOrder, execution: 'NEW' | 'TRADE' | 'EXPIRED' | 'CANCELED', trade: DeskTrade | undefined, cancelClientOrderId?: string): void {
    this.#sink(order.apiKey, executionReport(order, this.#rules.symbol, { execution, trade, nowMs: this.#clock.nowMs(), executionId: this.#nextTradeId * 2 + order.orderId, cancelClientOrderId }));
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
