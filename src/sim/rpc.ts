/**
 * The few Starknet JSON-RPC methods a client needs to check the venue's contract constants
 * (issue 11 item 1), on the embedded exchange's own second port, so tests read them with
 * starknet.js's real `RpcProvider` over HTTP:
 *
 * - `starknet_chainId`, `starknet_specVersion`, `starknet_blockNumber`;
 * - `starknet_call` on the core contract: `get_fee_recipient()`, `get_signer(trader)`,
 *   `get_nonce(user)`, `balanceOf(address, token)` (u256 as low, high) and
 *   `get_withdraw_steps()` (kurosawa_akira @8942fe5 src/LayerAkiraCore.cairo ILayerAkiraCore);
 *   any other contract is CONTRACT_NOT_FOUND (20), any other selector ENTRYPOINT_NOT_FOUND (21).
 *
 * Errors follow JSON-RPC 2.0 (`-32601` unknown method, `-32700` bad JSON, `-32602` bad params).
 */
import { createServer, type Server } from 'node:http';
import type { ChainInfo } from '../core/index.ts';
import { starknetJs } from '../exchange/chain/starknet-js.ts';

/** What the core contract's views read. */
export interface CoreState {
  readonly chain: ChainInfo;
  /** The Stark key bound to an account (0 when none). */
  signerOf(account: bigint): bigint;
  nonceOf(account: bigint): number;
  /** Free + locked base units of the token at `tokenAddress` (0 for unknown tokens). */
  balanceOf(account: bigint, tokenAddress: bigint): bigint;
  withdrawSteps(): number;
}

class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const U128 = 2n ** 128n;

function felt(value: bigint): string {
  return `0x${value.toString(16)}`;
}

function argument(calldata: readonly bigint[], index: number): bigint {
  const value = calldata[index];
  if (value === undefined) throw new RpcFailure(40, `Contract error: missing argument ${index}`);
  return value;
}

/** The views of the core contract by selector. */
function coreViews(state: CoreState): Map<string, (calldata: readonly bigint[]) => bigint[]> {
  const views: Record<string, (calldata: readonly bigint[]) => bigint[]> = {
    get_fee_recipient: () => [BigInt(state.chain.feeRecipient)],
    get_signer: (calldata) => [state.signerOf(argument(calldata, 0))],
    get_nonce: (calldata) => [BigInt(state.nonceOf(argument(calldata, 0)))],
    balanceOf: (calldata) => {
      const balance = state.balanceOf(argument(calldata, 0), argument(calldata, 1));
      return [balance % U128, balance / U128];
    },
    get_withdraw_steps: () => [BigInt(state.withdrawSteps())],
  };
  return new Map(Object.entries(views).map(([name, view]) => [starknetJs().hash.getSelectorFromName(name), view]));
}

function parseFelts(value: unknown, field: string): bigint[] {
  if (!Array.isArray(value)) throw new RpcFailure(-32602, `Invalid params: ${field} must be an array`);
  return (value as unknown[]).map((item) => {
    if (typeof item !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(item)) throw new RpcFailure(-32602, `Invalid params: ${field} holds ${JSON.stringify(item)}`);
    return BigInt(item);
  });
}

function answer(state: CoreState, views: Map<string, (calldata: readonly bigint[]) => bigint[]>, method: string, params: unknown): unknown {
  switch (method) {
    case 'starknet_chainId':
      return state.chain.chainId;
    case 'starknet_specVersion':
      return '0.9.0';
    case 'starknet_blockNumber':
      return 1;
    case 'starknet_call': {
      const request = (Array.isArray(params) ? params[0] : (params as { request?: unknown } | undefined)?.request) as Record<string, unknown> | undefined;
      if (typeof request !== 'object' || request === null) throw new RpcFailure(-32602, 'Invalid params: request is missing');
      const [contract] = parseFelts([request['contract_address']], 'contract_address');
      if (contract !== BigInt(state.chain.coreAddress)) throw new RpcFailure(20, 'Contract not found');
      const [selector] = parseFelts([request['entry_point_selector']], 'entry_point_selector');
      const view = views.get(felt(selector ?? 0n));
      if (view === undefined) throw new RpcFailure(21, 'Requested entrypoint does not exist in the contract');
      return view(parseFelts(request['calldata'] ?? [], 'calldata')).map(felt);
    }
    default:
      throw new RpcFailure(-32601, `Method not found: ${method}`);
  }
}

function handle(state: CoreState, views: Map<string, (calldata: readonly bigint[]) => bigint[]>, message: unknown): Record<string, unknown> {
  const { id, method, params } = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
  try {
    if (typeof method !== 'string') throw new RpcFailure(-32600, 'Invalid Request');
    return { jsonrpc: '2.0', id: id ?? null, result: answer(state, views, method, params) };
  } catch (error) {
    const failure = error instanceof RpcFailure ? error : new RpcFailure(-32603, error instanceof Error ? error.message : String(error));
    return { jsonrpc: '2.0', id: id ?? null, error: { code: failure.code, message: failure.message } };
  }
}

/** A JSON-RPC server over the venue's core state; not listening yet. */
export function createRpcServer(state: CoreState): Server {
  const views = coreViews(state);
  return createServer({ keepAlive: true }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let reply: unknown;
      try {
        const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        reply = Array.isArray(message) ? message.map((item) => handle(state, views, item)) : handle(state, views, message);
      } catch {
        reply = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
      }
      const text = JSON.stringify(reply);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      response.end(text);
    });
  });
}
