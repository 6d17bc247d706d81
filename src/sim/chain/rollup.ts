/**
 * Rollups of the Starknet double: the exchange's ledger moves a fill at once (the sim's matching),
 * and the chain records it later, in batches every `rollupMs` on the venue clock: one executor
 * transaction per batch with one `Trade` event per fill, fields as kurosawa_akira @8942fe5
 * src/BaseTradeComponent.cairo emits them (keys: the executor's `BaseTradeEvent` variant, `Trade`,
 * maker, taker; data: ticker (base, quote), router_maker, router_taker, amount_base, amount_quote,
 * is_sell_side (the maker's side), is_failed, is_ecosystem_book, maker_hash, taker_hash,
 * maker_source, taker_source). Then each order's owner gets the rollup tx report on the WebSocket
 * (`tx_hash`, `order_hash`, `source`: REFERENCE §3.3). A failed rollup (`rollupFailRate`, or
 * {@link Rollup.failNext}) is included with its Trade events marked `is_failed` (the executor's
 * failed-trade path, BaseTradeComponent.cairo `emit(Trade{… is_failed:true …})`) and sends no
 * report: its fills are not settled on chain, which is what the settlement check must catch.
 */
import type { Clock, Timer } from '../../core/index.ts';
import { shortStringToFelt } from '../../exchange/wire/fields.ts';
import type { FillEvent } from '../events.ts';
import type { ChainEvent, IncludedTransaction } from './double-chain.ts';
import { selectorOf, u256 } from './felts.ts';
import type { StarknetDouble } from './starknet-double.ts';

/** What the rollup needs. */
export interface RollupDeps {
  readonly double: StarknetDouble;
  readonly clock: Clock;
  /** Between two batches; 0 = no rollups (the chain records no trade). */
  readonly rollupMs: number;
  /** True when this batch's transaction is to revert (the fault switchboard). */
  rollupFails(): boolean;
  /** Sends a private report to an account's WebSocket subscribers. */
  report(account: bigint, result: Record<string, unknown>): void;
}

/** The outcome of one batch. */
export interface RollupBatch {
  readonly transaction: IncludedTransaction;
  readonly fills: number;
}

function sourceFelt(source: string): bigint {
  try {
    return shortStringToFelt(source);
  } catch {
    return 0n;
  }
}

/** The Trade event of one fill. */
export function tradeEvent(executor: bigint, event: FillEvent, isFailed = false): ChainEvent {
  const { maker, taker, fill } = event;
  return {
    fromAddress: executor,
    keys: [selectorOf('BaseTradeEvent'), selectorOf('Trade'), maker.account, taker.account],
    data: [
      BigInt(maker.market.base.address),
      BigInt(maker.market.quote.address),
      maker.request.fee.routerFee.recipient,
      taker.request.fee.routerFee.recipient,
      ...u256(fill.base),
      ...u256(fill.quote),
      maker.side === 'sell' ? 1n : 0n,
      isFailed ? 1n : 0n,
      maker.market.isEcosystemBook ? 1n : 0n,
      maker.hash,
      taker.hash,
      sourceFelt(maker.request.source),
      sourceFelt(taker.request.source),
    ],
  };
}

/** Batches fills into rollup transactions. */
export class Rollup {
  private pending: FillEvent[] = [];
  private timer: Timer | undefined;
  private failNextBatch = false;
  private readonly batches: RollupBatch[] = [];

  constructor(private readonly deps: RollupDeps) {}

  /** Starts the batch timer; idempotent; nothing when `rollupMs` is 0. */
  start(): void {
    if (this.timer !== undefined || this.deps.rollupMs <= 0) return;
    this.timer = this.deps.clock.setInterval(() => this.flush(), this.deps.rollupMs, { unref: true });
  }

  /** Stops the timer; idempotent. Fills still pending stay unsettled. */
  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Takes a fill for the next batch (only when rollups run). */
  onFill(event: FillEvent): void {
    if (this.deps.rollupMs > 0) this.pending.push(event);
  }

  /** Makes the next batch's transaction revert. */
  failNext(): void {
    this.failNextBatch = true;
  }

  /** Every batch so far, oldest first. */
  history(): readonly RollupBatch[] {
    return this.batches;
  }

  /** Fills waiting for the next batch. */
  pendingFills(): number {
    return this.pending.length;
  }

  /** Rolls up what is pending now (the timer calls it); undefined when nothing is. */
  flush(): RollupBatch | undefined {
    if (this.pending.length === 0) return undefined;
    const fills = this.pending;
    this.pending = [];
    const failed = this.failNextBatch || this.deps.rollupFails();
    this.failNextBatch = false;
    const { double } = this.deps;
    const executor = BigInt(double.chainInfo.executorAddress);
    const hash = double.nextOperatorHash();
    const transaction = double.operatorTransaction(
      hash,
      executor,
      [],
      fills.map((fill) => tradeEvent(executor, fill, failed)),
    );
    const batch = { transaction, fills: fills.length };
    this.batches.push(batch);
    if (!failed) {
      const txHash = `0x${hash.toString(16)}`;
      for (const { maker, taker } of fills) {
        for (const order of [maker, taker]) this.deps.report(order.account, { tx_hash: txHash, order_hash: `0x${order.hash.toString(16)}`, source: 'rollup' });
      }
    }
    return batch;
  }
}
