/**
 * The Starknet double's chain: blocks, transactions, receipts and events, and the contracts that
 * live on it (ERC-20 tokens, the core contract, account contracts). Every invoke runs its calls in
 * one scope: each contract's state is snapshotted first and restored when any call reverts, and the
 * exchange-ledger moves the core contract asks for are applied only after the last call succeeded,
 * so a multicall is all or nothing, as on Starknet.
 */
import type { Clock } from '../../core/index.ts';

/** A call reverted: the reason is what the contract asserted (kurosawa_akira's messages where we mirror one). */
export class Revert extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'Revert';
  }
}

/** One emitted event. */
export interface ChainEvent {
  readonly fromAddress: bigint;
  readonly keys: readonly bigint[];
  readonly data: readonly bigint[];
}

/** What a contract's entry point sees. */
export interface CallScope {
  /** The direct caller (an account, or a contract calling another). */
  readonly caller: bigint;
  readonly blockNumber: number;
  readonly blockTimestampSec: number;
  emit(event: ChainEvent): void;
  /** Calls another contract as `from` (nested call, same scope). */
  call(from: bigint, to: bigint, selector: bigint, calldata: readonly bigint[]): bigint[];
  /** Runs `effect` only when the whole transaction succeeds. */
  afterSuccess(effect: () => void): void;
  /** A per-transaction scratch map (pending ledger deltas of the core contract). */
  readonly scratch: Map<string, bigint>;
}

/** An entry point: reads calldata felts, returns felts, throws {@link Revert}. */
export type EntryPoint = (scope: CallScope, calldata: readonly bigint[]) => bigint[];

/** A contract deployed on the double. */
export interface DoubleContract {
  readonly classHash: bigint;
  /** Entry points by selector (views and externals alike). */
  entry(selector: bigint): EntryPoint | undefined;
  /** Captures the contract's state; the returned function restores it. */
  snapshot(): () => void;
}

/** A call of a multicall. */
export interface ChainCall {
  readonly to: bigint;
  readonly selector: bigint;
  readonly calldata: readonly bigint[];
}

/** Outcome of running calls. */
export type RunResult =
  | { readonly ok: true; readonly events: readonly ChainEvent[]; readonly results: readonly (readonly bigint[])[] }
  | { readonly ok: false; readonly reason: string; readonly callIndex: number };

/** A transaction included in a block. */
export interface IncludedTransaction {
  readonly hash: bigint;
  readonly blockNumber: number;
  readonly index: number;
  /** The transaction as the RPC returns it (`starknet_getTransactionByHash`). */
  readonly body: Record<string, unknown>;
  readonly succeeded: boolean;
  readonly revertReason?: string;
  readonly actualFeeFri: bigint;
  readonly events: readonly ChainEvent[];
  readonly l2Gas: bigint;
}

/** A closed block. */
export interface Block {
  readonly number: number;
  readonly hash: bigint;
  readonly parentHash: bigint;
  readonly timestampSec: number;
  readonly transactions: IncludedTransaction[];
}

/** An event as `starknet_getEvents` lists it, with its place. */
export interface PlacedEvent extends ChainEvent {
  readonly blockNumber: number;
  readonly blockHash: bigint;
  readonly transactionHash: bigint;
  readonly transactionIndex: number;
  readonly eventIndex: number;
}

function blockHashOf(number: number): bigint {
  // Any distinct felt does; recognisable in logs.
  return 0xb10c0000000000000000000000000000n + BigInt(number);
}

/** The double's chain. */
export class DoubleChain {
  private readonly contracts = new Map<bigint, DoubleContract>();
  private readonly blocks: Block[] = [];
  private readonly byHash = new Map<bigint, IncludedTransaction>();
  private readonly placed: PlacedEvent[] = [];

  constructor(private readonly clock: Clock) {
    this.blocks.push({ number: 0, hash: blockHashOf(0), parentHash: 0n, timestampSec: this.nowSec(), transactions: [] });
  }

  deploy(address: bigint, contract: DoubleContract): void {
    this.contracts.set(address, contract);
  }

  contractAt(address: bigint): DoubleContract | undefined {
    return this.contracts.get(address);
  }

  /** The latest closed block. */
  latest(): Block {
    return this.blocks[this.blocks.length - 1] as Block;
  }

  block(number: number): Block | undefined {
    return this.blocks[number];
  }

  /** The block the next transaction goes into (its number and timestamp). */
  pendingBlock(): { readonly number: number; readonly timestampSec: number } {
    return { number: this.latest().number + 1, timestampSec: Math.max(this.latest().timestampSec, this.nowSec()) };
  }

  transaction(hash: bigint): IncludedTransaction | undefined {
    return this.byHash.get(hash);
  }

  events(): readonly PlacedEvent[] {
    return this.placed;
  }

  /** Closes an empty block (the chain moves on even without transactions). */
  mineEmpty(): Block {
    return this.close([]);
  }

  /**
   * Runs calls from `sender` atomically; nothing changes when one reverts. With `commit` false (a
   * fee estimate) nothing changes either way.
   */
  run(sender: bigint, calls: readonly ChainCall[], commit = true): RunResult {
    const restores = [...this.contracts.values()].map((contract) => contract.snapshot());
    const events: ChainEvent[] = [];
    const effects: (() => void)[] = [];
    const scratch = new Map<string, bigint>();
    const pending = this.pendingBlock();
    const results: bigint[][] = [];
    let index = 0;
    const invoke = (from: bigint, to: bigint, selector: bigint, calldata: readonly bigint[]): bigint[] => {
      const contract = this.contracts.get(to);
      if (contract === undefined) throw new Revert(`CONTRACT_NOT_DEPLOYED: 0x${to.toString(16)}`);
      const entry = contract.entry(selector);
      if (entry === undefined) throw new Revert(`ENTRYPOINT_NOT_FOUND: selector 0x${selector.toString(16)} on 0x${to.toString(16)}`);
      const scope: CallScope = {
        caller: from,
        blockNumber: pending.number,
        blockTimestampSec: pending.timestampSec,
        emit: (event) => events.push(event),
        call: (nestedFrom, nestedTo, nestedSelector, nestedData) => invoke(nestedFrom, nestedTo, nestedSelector, nestedData),
        afterSuccess: (effect) => effects.push(effect),
        scratch,
      };
      return entry(scope, calldata);
    };
    try {
      for (const call of calls) {
        results.push(invoke(sender, call.to, call.selector, call.calldata));
        index++;
      }
    } catch (error) {
      for (const restore of restores) restore();
      if (error instanceof Revert) return { ok: false, reason: error.message, callIndex: index };
      throw error;
    }
    if (!commit) {
      for (const restore of restores) restore();
      return { ok: true, events, results };
    }
    for (const effect of effects) effect();
    return { ok: true, events, results };
  }

  /** Reads a view: runs the call and throws away every change. */
  view(to: bigint, selector: bigint, calldata: readonly bigint[]): bigint[] {
    const contract = this.contracts.get(to);
    if (contract === undefined) throw new Revert(`CONTRACT_NOT_DEPLOYED: 0x${to.toString(16)}`);
    const entry = contract.entry(selector);
    if (entry === undefined) throw new Revert(`ENTRYPOINT_NOT_FOUND: selector 0x${selector.toString(16)}`);
    const restores = [...this.contracts.values()].map((item) => item.snapshot());
    const pending = this.pendingBlock();
    try {
      return entry(
        {
          caller: 0n,
          blockNumber: pending.number,
          blockTimestampSec: pending.timestampSec,
          emit: () => undefined,
          call: (from, nestedTo, selectorOf, data) => this.view(nestedTo, selectorOf, data),
          afterSuccess: () => undefined,
          scratch: new Map(),
        },
        calldata,
      );
    } finally {
      for (const restore of restores) restore();
    }
  }

  /** Appends transactions as one new block. */
  include(transactions: readonly Omit<IncludedTransaction, 'blockNumber' | 'index'>[]): Block {
    return this.close(transactions);
  }

  private close(transactions: readonly Omit<IncludedTransaction, 'blockNumber' | 'index'>[]): Block {
    const { number, timestampSec } = this.pendingBlock();
    const block: Block = { number, hash: blockHashOf(number), parentHash: this.latest().hash, timestampSec, transactions: [] };
    transactions.forEach((transaction, index) => {
      const included: IncludedTransaction = { ...transaction, blockNumber: number, index };
      block.transactions.push(included);
      this.byHash.set(included.hash, included);
      included.events.forEach((event, eventIndex) => {
        this.placed.push({ ...event, blockNumber: number, blockHash: block.hash, transactionHash: included.hash, transactionIndex: index, eventIndex });
      });
    });
    this.blocks.push(block);
    return block;
  }

  private nowSec(): number {
    return Math.floor(this.clock.nowMs() / 1000);
  }
}
