/**
 * The executor's `Trade` events of one account, read with starknet.js's `RpcProvider.getEvents`
 * (page by page with the continuation token): the on-chain record the settlement check matches our
 * fills to. Fields as kurosawa_akira @8942fe5 src/BaseTradeComponent.cairo emits them (keys: the
 * executor's `BaseTradeEvent` variant, `Trade`, maker, taker; `is_sell_side` is the maker's side).
 */
import type { ChainInfo } from '../../core/index.ts';
import { ExchangeError } from '../client/errors.ts';
import { chainReason } from './owner-account.ts';
import { starknetJs } from './starknet-js.ts';

/** One Trade event. Amounts in base units. */
export interface ChainTrade {
  readonly maker: bigint;
  readonly taker: bigint;
  readonly baseToken: bigint;
  readonly quoteToken: bigint;
  readonly amountBase: bigint;
  readonly amountQuote: bigint;
  /** The maker sold. */
  readonly isMakerSell: boolean;
  readonly isFailed: boolean;
  readonly makerHash: bigint;
  readonly takerHash: bigint;
  readonly transactionHash: string;
  readonly blockNumber: number;
  readonly blockTimestampSec: number;
}

const U128 = 2n ** 128n;

/**
 * Every Trade event naming `account` as maker or taker from `fromBlock` on.
 * @throws ExchangeError `EXCHANGE_RPC` when the node cannot be read.
 */
export async function readAccountTrades(rpcUrl: string, chain: ChainInfo, account: bigint, fromBlock = 0): Promise<ChainTrade[]> {
  const starknet = starknetJs();
  const provider = new starknet.RpcProvider({ nodeUrl: rpcUrl });
  const selector = (name: string): string => starknet.hash.getSelectorFromName(name);
  const trades: ChainTrade[] = [];
  const timestamps = new Map<number, number>();
  try {
    let token: string | undefined;
    do {
      const page = await provider.getEvents({
        address: chain.executorAddress,
        keys: [[selector('BaseTradeEvent')], [selector('Trade')]],
        from_block: { block_number: fromBlock },
        to_block: 'latest',
        chunk_size: 256,
        ...(token === undefined ? {} : { continuation_token: token }),
      });
      for (const event of page.events) {
        const keys = event.keys.map((key) => BigInt(key));
        const data = event.data.map((item) => BigInt(item));
        const maker = keys[2] ?? 0n;
        const taker = keys[3] ?? 0n;
        if (maker !== account && taker !== account) continue;
        const blockNumber = event.block_number ?? 0;
        if (!timestamps.has(blockNumber)) timestamps.set(blockNumber, ((await provider.getBlockWithTxHashes(blockNumber)) as { timestamp: number }).timestamp);
        const at = (index: number): bigint => data[index] ?? 0n;
        trades.push({
          maker,
          taker,
          baseToken: at(0),
          quoteToken: at(1),
          amountBase: at(4) + at(5) * U128,
          amountQuote: at(6) + at(7) * U128,
          isMakerSell: at(8) === 1n,
          isFailed: at(9) === 1n,
          makerHash: at(11),
          takerHash: at(12),
          transactionHash: event.transaction_hash,
          blockNumber,
          blockTimestampSec: timestamps.get(blockNumber) ?? 0,
        });
      }
      token = page.continuation_token;
    } while (token !== undefined);
  } catch (error) {
    throw new ExchangeError('EXCHANGE_RPC', `reading Trade events failed: ${chainReason(error)}`, { endpoint: `RPC ${rpcUrl}`, cause: error });
  }
  return trades;
}
