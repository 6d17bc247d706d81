/**
 * The double's Starknet JSON-RPC (spec 0.10, the version starknet.js 10 speaks by default), on the
 * embedded exchange's second port: enough for starknet.js's `RpcProvider`, `Account` and
 * `Contract` unchanged. Methods: `specVersion`, `chainId`, `blockNumber`, `blockHashAndNumber`,
 * `getBlockWithTxs`, `getBlockWithTxHashes`, `getNonce`, `getClassHashAt`, `getClassAt`, `call`,
 * `estimateFee`, `addInvokeTransaction`, `getTransactionStatus`, `getTransactionReceipt`,
 * `getTransactionByHash`, `getEvents` (address and key filters, block range, chunk size and a
 * continuation token). State reads answer from the latest state whatever block they name (the
 * double keeps no state history). Errors follow JSON-RPC 2.0 and Starknet's codes (20 contract not
 * found, 21 entry point not found, 24 block not found, 29 transaction hash not found, 33 invalid
 * continuation token, 40 contract error, 41 execution error, 52 nonce, 53 resources, 54 balance,
 * 55 validation, 61 unsupported version).
 */
import { createServer, type Server } from 'node:http';
import { ACCOUNT_CLASS } from './account-contract.ts';
import { Revert, type Block, type DoubleContract, type IncludedTransaction } from './double-chain.ts';
import { hex } from './felts.ts';
import type { StarknetDouble } from './starknet-double.ts';
import { RpcFailure, felts, parseInvoke } from './transactions.ts';

/** The spec version the double answers. */
export const SPEC_VERSION = '0.10.0';

type Params = Record<string, unknown>;

/** Positional parameter names per method (starknet.js sends named ones; both are accepted). */
const PARAM_NAMES: Record<string, readonly string[]> = {
  starknet_getBlockWithTxs: ['block_id'],
  starknet_getBlockWithTxHashes: ['block_id'],
  starknet_getNonce: ['block_id', 'contract_address'],
  starknet_getClassHashAt: ['block_id', 'contract_address'],
  starknet_getClassAt: ['block_id', 'contract_address'],
  starknet_call: ['request', 'block_id'],
  starknet_estimateFee: ['request', 'simulation_flags', 'block_id'],
  starknet_addInvokeTransaction: ['invoke_transaction'],
  starknet_getTransactionStatus: ['transaction_hash'],
  starknet_getTransactionReceipt: ['transaction_hash'],
  starknet_getTransactionByHash: ['transaction_hash'],
  starknet_getEvents: ['filter'],
};

function named(method: string, params: unknown): Params {
  if (Array.isArray(params)) {
    const names = PARAM_NAMES[method] ?? [];
    return Object.fromEntries(names.map((name, index) => [name, params[index]]));
  }
  return (typeof params === 'object' && params !== null ? params : {}) as Params;
}

function feltParam(value: unknown, field: string): bigint {
  const [item] = felts([value], field);
  return item as bigint;
}

function gasPrices(double: StarknetDouble): Record<string, unknown> {
  const prices = double.gasPrices;
  return {
    l1_gas_price: { price_in_fri: hex(prices.l1GasFri), price_in_wei: hex(prices.l1GasFri / 3_000n) },
    l2_gas_price: { price_in_fri: hex(prices.l2GasFri), price_in_wei: hex(prices.l2GasFri / 3_000n) },
    l1_data_gas_price: { price_in_fri: hex(prices.l1DataGasFri), price_in_wei: hex(prices.l1DataGasFri / 3_000n) },
    l1_da_mode: 'BLOB',
    starknet_version: '0.14.0',
    sequencer_address: '0x1176a1bd84444c89232ec27754698e5d2e7e1a7f1539f12027f28b23ec9f3d8',
  };
}

type BlockRef = { readonly block: Block } | { readonly preConfirmed: true };

function blockRef(double: StarknetDouble, id: unknown): BlockRef {
  if (id === undefined || id === 'latest' || id === 'l1_accepted') return { block: double.chain.latest() };
  if (id === 'pre_confirmed' || id === 'pending') return { preConfirmed: true };
  if (typeof id === 'object' && id !== null) {
    const record = id as Record<string, unknown>;
    if (typeof record['block_number'] === 'number') {
      const block = double.chain.block(record['block_number']);
      if (block === undefined) throw new RpcFailure(24, 'Block not found');
      return { block };
    }
    if (typeof record['block_hash'] === 'string') {
      const wanted = BigInt(record['block_hash']);
      for (let number = double.chain.latest().number; number >= 0; number--) {
        const block = double.chain.block(number);
        if (block?.hash === wanted) return { block };
      }
      throw new RpcFailure(24, 'Block not found');
    }
  }
  throw new RpcFailure(-32602, `Invalid params: block_id ${JSON.stringify(id)}`);
}

function blockJson(double: StarknetDouble, ref: BlockRef, withTxs: boolean): Record<string, unknown> {
  if ('preConfirmed' in ref) {
    const pending = double.chain.pendingBlock();
    return { block_number: pending.number, timestamp: pending.timestampSec, transactions: [], ...gasPrices(double) };
  }
  const { block } = ref;
  return {
    status: 'ACCEPTED_ON_L2',
    block_hash: hex(block.hash),
    parent_hash: hex(block.parentHash),
    block_number: block.number,
    new_root: hex(block.hash),
    timestamp: block.timestampSec,
    ...gasPrices(double),
    transactions: block.transactions.map((transaction) => (withTxs ? transaction.body : hex(transaction.hash))),
  };
}

function receipt(double: StarknetDouble, transaction: IncludedTransaction): Record<string, unknown> {
  const block = double.chain.block(transaction.blockNumber) as Block;
  return {
    type: 'INVOKE',
    transaction_hash: hex(transaction.hash),
    actual_fee: { amount: hex(transaction.actualFeeFri), unit: 'FRI' },
    execution_status: transaction.succeeded ? 'SUCCEEDED' : 'REVERTED',
    finality_status: 'ACCEPTED_ON_L2',
    block_hash: hex(block.hash),
    block_number: block.number,
    messages_sent: [],
    ...(transaction.revertReason === undefined ? {} : { revert_reason: transaction.revertReason }),
    events: transaction.events.map((event) => ({ from_address: hex(event.fromAddress), keys: event.keys.map(hex), data: event.data.map(hex) })),
    execution_resources: { l1_gas: 0, l1_data_gas: 0, l2_gas: Number(transaction.l2Gas) },
  };
}

function knownTransaction(double: StarknetDouble, params: Params): IncludedTransaction {
  const transaction = double.chain.transaction(feltParam(params['transaction_hash'], 'transaction_hash'));
  if (transaction === undefined) throw new RpcFailure(29, 'Transaction hash not found');
  return transaction;
}

/** `starknet_getEvents`: filters, then a page of `chunk_size` from the continuation token (an index). */
function events(double: StarknetDouble, params: Params): Record<string, unknown> {
  const filter = (typeof params['filter'] === 'object' && params['filter'] !== null ? params['filter'] : {}) as Record<string, unknown>;
  const chunkSize = filter['chunk_size'];
  if (typeof chunkSize !== 'number' || !Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > 1024) throw new RpcFailure(31, 'Requested page size is too big (1…1024)');
  const from = filter['from_block'] === undefined ? 0 : numberOf(double, filter['from_block']);
  const to = filter['to_block'] === undefined ? double.chain.latest().number : numberOf(double, filter['to_block']);
  const address = filter['address'] === undefined ? undefined : feltParam(filter['address'], 'filter.address');
  const keys = filter['keys'] === undefined ? [] : (filter['keys'] as unknown[]).map((group, index) => felts(group, `filter.keys[${index}]`));
  let start = 0;
  if (filter['continuation_token'] !== undefined) {
    const token = filter['continuation_token'];
    if (typeof token !== 'string' || !/^\d+$/.test(token)) throw new RpcFailure(33, 'The supplied continuation token is invalid or unknown');
    start = Number(token);
  }
  const matching = double.chain.events().filter(
    (event) =>
      event.blockNumber >= from &&
      event.blockNumber <= to &&
      (address === undefined || event.fromAddress === address) &&
      keys.every((group, index) => group.length === 0 || group.includes(event.keys[index] ?? -1n)),
  );
  const page = matching.slice(start, start + chunkSize);
  return {
    events: page.map((event) => ({
      from_address: hex(event.fromAddress),
      keys: event.keys.map(hex),
      data: event.data.map(hex),
      block_hash: hex(event.blockHash),
      block_number: event.blockNumber,
      transaction_hash: hex(event.transactionHash),
      transaction_index: event.transactionIndex,
      event_index: event.eventIndex,
    })),
    ...(start + chunkSize < matching.length ? { continuation_token: String(start + chunkSize) } : {}),
  };
}

function numberOf(double: StarknetDouble, id: unknown): number {
  const ref = blockRef(double, id);
  return 'block' in ref ? ref.block.number : double.chain.pendingBlock().number;
}

function contractOf(double: StarknetDouble, params: Params): DoubleContract {
  const contract = double.chain.contractAt(feltParam(params['contract_address'], 'contract_address'));
  if (contract === undefined) throw new RpcFailure(20, 'Contract not found');
  return contract;
}

function answer(double: StarknetDouble, method: string, params: Params): unknown {
  switch (method) {
    case 'starknet_specVersion':
      return SPEC_VERSION;
    case 'starknet_chainId':
      return double.chainInfo.chainId;
    case 'starknet_blockNumber':
      return double.chain.latest().number;
    case 'starknet_blockHashAndNumber':
      return { block_hash: hex(double.chain.latest().hash), block_number: double.chain.latest().number };
    case 'starknet_getBlockWithTxs':
    case 'starknet_getBlockWithTxHashes':
      return blockJson(double, blockRef(double, params['block_id']), method === 'starknet_getBlockWithTxs');
    case 'starknet_getNonce': {
      blockRef(double, params['block_id']);
      const account = double.accounts.get(feltParam(params['contract_address'], 'contract_address'));
      if (account === undefined) {
        contractOf(double, params);
        return '0x0';
      }
      return hex(account.nonce);
    }
    case 'starknet_getClassHashAt':
      blockRef(double, params['block_id']);
      return hex(contractOf(double, params).classHash);
    case 'starknet_getClassAt': {
      blockRef(double, params['block_id']);
      contractOf(double, params);
      // Only accounts have a class a client needs (starknet.js reads it for the Cairo version).
      return double.accounts.has(feltParam(params['contract_address'], 'contract_address')) ? ACCOUNT_CLASS : { ...ACCOUNT_CLASS, abi: '[]' };
    }
    case 'starknet_call': {
      const request = (typeof params['request'] === 'object' && params['request'] !== null ? params['request'] : {}) as Params;
      blockRef(double, params['block_id']);
      const address = feltParam(request['contract_address'], 'contract_address');
      const contract = double.chain.contractAt(address);
      if (contract === undefined) throw new RpcFailure(20, 'Contract not found');
      const selector = feltParam(request['entry_point_selector'], 'entry_point_selector');
      if (contract.entry(selector) === undefined) throw new RpcFailure(21, 'Requested entrypoint does not exist in the contract');
      try {
        return double.chain.view(address, selector, felts(request['calldata'] ?? [], 'calldata')).map(hex);
      } catch (error) {
        if (error instanceof Revert) throw new RpcFailure(40, 'Contract error', { revert_error: error.message });
        throw error;
      }
    }
    case 'starknet_estimateFee': {
      const requests = params['request'];
      if (!Array.isArray(requests)) throw new RpcFailure(-32602, 'Invalid params: request must be an array of transactions');
      const flags = Array.isArray(params['simulation_flags']) ? (params['simulation_flags'] as unknown[]) : [];
      return requests.map((request) => {
        const estimate = double.estimate(parseInvoke(request), flags.includes('SKIP_VALIDATE'));
        return {
          l1_gas_consumed: hex(estimate.l1Gas),
          l1_gas_price: hex(double.gasPrices.l1GasFri),
          l2_gas_consumed: hex(estimate.l2Gas),
          l2_gas_price: hex(double.gasPrices.l2GasFri),
          l1_data_gas_consumed: hex(estimate.l1DataGas),
          l1_data_gas_price: hex(double.gasPrices.l1DataGasFri),
          overall_fee: hex(estimate.overallFee),
          unit: 'FRI',
        };
      });
    }
    case 'starknet_addInvokeTransaction':
      return { transaction_hash: hex(double.submit(parseInvoke(params['invoke_transaction']))) };
    case 'starknet_getTransactionStatus': {
      const transaction = knownTransaction(double, params);
      return {
        finality_status: 'ACCEPTED_ON_L2',
        execution_status: transaction.succeeded ? 'SUCCEEDED' : 'REVERTED',
        ...(transaction.revertReason === undefined ? {} : { failure_reason: transaction.revertReason }),
      };
    }
    case 'starknet_getTransactionReceipt':
      return receipt(double, knownTransaction(double, params));
    case 'starknet_getTransactionByHash':
      return knownTransaction(double, params).body;
    case 'starknet_getEvents':
      return events(double, params);
    default:
      throw new RpcFailure(-32601, `Method not found: ${method}`);
  }
}

function handle(double: StarknetDouble, message: unknown): Record<string, unknown> {
  const { id, method, params } = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
  try {
    if (typeof method !== 'string') throw new RpcFailure(-32600, 'Invalid Request');
    return { jsonrpc: '2.0', id: id ?? null, result: answer(double, method, named(method, params)) };
  } catch (error) {
    const failure = error instanceof RpcFailure ? error : new RpcFailure(-32603, error instanceof Error ? error.message : String(error));
    return { jsonrpc: '2.0', id: id ?? null, error: { code: failure.code, message: failure.message, ...(failure.data === undefined ? {} : { data: failure.data }) } };
  }
}

/** A JSON-RPC server over the double; not listening yet. */
export function createRpcServer(double: StarknetDouble): Server {
  return createServer({ keepAlive: true }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let reply: unknown;
      try {
        const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        reply = Array.isArray(message) ? message.map((item) => handle(double, item)) : handle(double, message);
      } catch {
        reply = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
      }
      const text = JSON.stringify(reply);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      response.end(text);
    });
  });
}
