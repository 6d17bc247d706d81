/** What the matching engine tells the outside (market data, private streams) as it works. */
import type { Side } from '../core/index.ts';
import type { WithdrawRequest } from '../exchange/wire/requests.ts';
import type { Market } from './markets.ts';
import type { FillAmounts } from './settlement.ts';
import type { SimOrder } from './orders.ts';

/** One execution report: the order's state after a change, with the fill that caused it, if any. */
export interface ExecutionEvent {
  readonly order: SimOrder;
  readonly fill: FillAmounts | undefined;
}

/** A trade print. `takerSide` 'sell' means the aggressor sold (`is_sell_side`). */
export interface TradeEvent {
  readonly market: Market;
  readonly price: bigint;
  readonly base: bigint;
  readonly quote: bigint;
  readonly takerSide: Side;
  readonly timeMs: number;
}

/** A non-order private report (nonce, withdraw, cancel-all, failures), already in wire shape. */
export interface AccountReportEvent {
  readonly account: bigint;
  readonly market: Market | undefined;
  readonly result: Record<string, unknown>;
}

/** Receives the engine's events. Called synchronously while a request is processed. */
export interface EngineListener {
  onExecution(event: ExecutionEvent): void;
  onTrade(event: TradeEvent): void;
  onAccountReport(event: AccountReportEvent): void;
  /** After each processed request: the levels it changed, per book (side + price). */
  onBooksChanged(changes: ReadonlyMap<Market, ReadonlyArray<{ side: Side; price: bigint }>>): void;
  /** One fill, as it settles in the exchange's ledger (the Starknet double rolls it up later). */
  onFill?(event: FillEvent): void;
  /** An off-chain withdraw was paid out of the ledger: `paid` base units of its token reach the receiver's wallet. */
  onWithdrawPaid?(event: WithdrawPaidEvent): void;
}

/** A fill between a maker and a taker order. */
export interface FillEvent {
  readonly maker: SimOrder;
  readonly taker: SimOrder;
  readonly fill: FillAmounts;
  readonly timeMs: number;
}

/** An off-chain withdraw the exchange paid (the chain pays the receiver's wallet and emits `Withdrawal`). */
export interface WithdrawPaidEvent {
  readonly request: WithdrawRequest;
  readonly paid: bigint;
  readonly gasPriceFri: bigint;
}
