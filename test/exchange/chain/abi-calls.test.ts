/**
 * Every call `akira-mm account` sends, and every view it reads, checked against LayerAkira's ABIs
 * (src/exchange/chain/abi/, sources and commits in SOURCES.md): the entry point exists with the
 * right mutability, its selector is sn_keccak of the name, and the calldata has the ABI's layout
 * (felts, u256 as low/high, structs and tuples member by member) with our values at their places.
 * The layout is computed here from the ABI JSON, not by starknet.js, so the check is independent
 * of how the calls were built.
 */
import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { Secret, getChain } from '../../../src/core/index.ts';
import { OwnerAccount, loadAbi } from '../../../src/exchange/index.ts';
import type { WithdrawRequest } from '../../../src/exchange/wire/requests.ts';
import { StarknetDouble } from '../../../src/sim/index.ts';

interface AbiEntry {
  readonly type: string;
  readonly name: string;
  readonly inputs?: readonly { readonly name: string; readonly type: string }[];
  readonly members?: readonly { readonly name: string; readonly type: string }[];
  readonly items?: readonly AbiEntry[];
  readonly state_mutability?: string;
}

const FELT_TYPES = new Set(['core::felt252', 'core::starknet::contract_address::ContractAddress', 'core::integer::u32', 'core::integer::u64', 'core::integer::u8', 'core::integer::u16', 'core::integer::u128', 'core::bool']);

function entriesOf(abi: readonly AbiEntry[]): AbiEntry[] {
  return abi.flatMap((entry) => (entry.type === 'interface' ? [...(entry.items ?? [])] : [entry]));
}

function functionOf(abi: readonly AbiEntry[], name: string): AbiEntry {
  const found = entriesOf(abi).find((entry) => entry.type === 'function' && entry.name === name);
  if (found === undefined) throw new Error(`${name} is not a function of the ABI`);
  return found;
}

/** Felt paths of one value of `type`, e.g. ['amount.low', 'amount.high']. */
function layout(abi: readonly AbiEntry[], type: string, path: string): string[] {
  if (FELT_TYPES.has(type)) return [path];
  if (type === 'core::integer::u256') return [`${path}.low`, `${path}.high`];
  const tuple = /^\((.*)\)$/.exec(type);
  if (tuple !== null) {
    const parts = (tuple[1] ?? '').split(/,\s*(?![^()]*\))/);
    return parts.flatMap((part, index) => layout(abi, part.trim(), `${path}.${index}`));
  }
  const struct = abi.find((entry) => entry.type === 'struct' && entry.name === type);
  if (struct !== undefined) return (struct.members ?? []).flatMap((member) => layout(abi, member.type, `${path}.${member.name}`));
  throw new Error(`type ${type} of ${path} has no fixed layout here`);
}

function calldataLayout(abi: readonly AbiEntry[], name: string): string[] {
  return (functionOf(abi, name).inputs ?? []).flatMap((input) => layout(abi, input.type, input.name));
}

const CHAIN = getChain('mainnet');
const ACCOUNT = 0x5e42ffb49f221eda8f547e7c7e46223112e6b6fb1511867c8aee0fe3acd5b2cn;
const CORE = loadAbi('core') as unknown as AbiEntry[];
const ERC20 = loadAbi('erc20') as unknown as AbiEntry[];
const USDC = CHAIN.tokens.get('USDC')!;
const STRK = CHAIN.tokens.get('STRK')!;

function client(): OwnerAccount {
  return new OwnerAccount({ rpcUrl: 'http://127.0.0.1:1', chain: CHAIN, account: ACCOUNT, ownerKey: new Secret('0x1') });
}

/** The call's calldata by felt path of the ABI. */
function byPath(abi: readonly AbiEntry[], call: { entrypoint: string; calldata?: unknown }): Map<string, bigint> {
  const felts = (call.calldata as string[]).map((item) => BigInt(item));
  const paths = calldataLayout(abi, call.entrypoint);
  expect(felts, `${call.entrypoint}: ${paths.join(', ')}`).toHaveLength(paths.length);
  return new Map(paths.map((path, index) => [path, felts[index]!]));
}

const WITHDRAW: WithdrawRequest = {
  maker: ACCOUNT,
  token: USDC,
  amount: 2n ** 130n + 7n,
  salt: 0xabcn,
  gasFee: { gasPerAction: 9, feeToken: STRK, maxGasPrice: 80_000_000_000_000n, conversionRate: [1n, 3n] },
  receiver: 0x1234n,
  signScheme: '',
};

describe('the calls we send, against LayerAkira’s ABIs', () => {
  it('lays out every external call as the ABI says, with our values in place', () => {
    const account = client();
    const cases: { abi: AbiEntry[]; call: ReturnType<OwnerAccount['bindCall']>; to: string; expected: Record<string, bigint> }[] = [
      { abi: CORE, call: account.bindCall(0x77n), to: CHAIN.coreAddress, expected: { signer: 0x77n } },
      { abi: ERC20, call: account.approveCall(USDC, 2n ** 128n + 5n), to: USDC.address, expected: { spender: BigInt(CHAIN.coreAddress), 'amount.low': 5n, 'amount.high': 1n } },
      { abi: CORE, call: account.depositCall(USDC, 1_000_000n), to: CHAIN.coreAddress, expected: { receiver: ACCOUNT, token: BigInt(USDC.address), 'amount.low': 1_000_000n, 'amount.high': 0n } },
      { abi: CORE, call: account.grantCall(), to: CHAIN.coreAddress, expected: { executor: BigInt(CHAIN.executorAddress) } },
      {
        abi: CORE,
        call: account.requestWithdrawCall(WITHDRAW),
        to: CHAIN.coreAddress,
        expected: {
          'withdraw.maker': ACCOUNT,
          'withdraw.token': BigInt(USDC.address),
          'withdraw.amount.low': 7n,
          'withdraw.amount.high': 4n,
          'withdraw.salt': 0xabcn,
          'withdraw.gas_fee.gas_per_action': 9n,
          'withdraw.gas_fee.fee_token': BigInt(STRK.address),
          'withdraw.gas_fee.max_gas_price.low': 80_000_000_000_000n,
          'withdraw.gas_fee.conversion_rate.0.low': 1n,
          'withdraw.gas_fee.conversion_rate.1.low': 3n,
          'withdraw.receiver': 0x1234n,
          'withdraw.sign_scheme': 0n,
        },
      },
      { abi: CORE, call: account.applyWithdrawCall(USDC, 0xbeefn), to: CHAIN.coreAddress, expected: { token: BigInt(USDC.address), key: 0xbeefn } },
    ];
    for (const { abi, call, to, expected } of cases) {
      expect(functionOf(abi, call.entrypoint).state_mutability, call.entrypoint).toBe('external');
      expect(BigInt(call.contractAddress), call.entrypoint).toBe(BigInt(to));
      const values = byPath(abi, call);
      for (const [path, value] of Object.entries(expected)) expect(values.get(path), `${call.entrypoint} ${path}`).toBe(value);
    }
  });

  it('reads only views the ABI has, and the double answers each one by the ABI’s selector', () => {
    const double = new StarknetDouble({
      chain: CHAIN,
      clock: { nowMs: () => 0, setTimeout: () => ({ cancel: () => undefined }), setInterval: () => ({ cancel: () => undefined }) },
      ledger: new (class {
        get() {
          return { free: 0n, locked: 0n };
        }
      })() as never,
      accounts: new Map(),
      hasher: { withdraw: () => 0n } as never,
      nonceOf: () => 0,
      withdrawSteps: () => 9,
    });
    const coreViews = ['get_signer', 'is_approved_executor', 'get_nonce', 'get_withdraw_steps', 'get_withdraw_delay_params', 'balanceOf', 'balancesOf', 'get_pending_withdraw', 'get_fee_recipient'];
    const coreExternals = ['bind_to_signer', 'deposit', 'grant_access_to_executor', 'request_onchain_withdraw', 'apply_onchain_withdraw'];
    for (const name of coreViews) expect(functionOf(CORE, name).state_mutability, name).toBe('view');
    for (const name of [...coreViews, ...coreExternals]) expect(double.core.entry(BigInt(hash.getSelectorFromName(name))), name).toBeDefined();
    const erc20 = double.token('USDC');
    for (const name of ['balanceOf', 'allowance', 'approve', 'transferFrom', 'transfer', 'decimals', 'symbol']) {
      functionOf(ERC20, name);
      expect(erc20.entry(BigInt(hash.getSelectorFromName(name))), name).toBeDefined();
    }
    // The executor's Trade event, whose fields the settlement check reads (BaseTradeComponent.cairo).
    const trade = (loadAbi('executor') as unknown as AbiEntry[]).find((entry) => entry.type === 'event' && entry.name.endsWith('::Trade'));
    expect((trade as { members: { name: string }[] } | undefined)?.members.map((member) => member.name)).toEqual([
      'maker', 'taker', 'ticker', 'router_maker', 'router_taker', 'amount_base', 'amount_quote', 'is_sell_side', 'is_failed', 'is_ecosystem_book', 'maker_hash', 'taker_hash', 'maker_source', 'taker_source',
    ]);
  });
});
