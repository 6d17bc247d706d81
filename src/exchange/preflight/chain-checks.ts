/**
 * Preflight's on-chain account checks (issue 31), with STARKNET_RPC_URL: the executor may settle
 * our trades (`is_approved_executor`), and the core contract's balances of the pair's tokens equal
 * what the venue's API reports (a difference means deposits or withdrawals the venue has not
 * seen yet, or settlements the chain has not: `akira-mm account settlement` tells which).
 */
import { formatUnits } from '../../core/index.ts';
import { readAccountOnChain } from '../chain/index.ts';
import type { RestClient } from '../client/index.ts';
import type { CheckResult, PreflightTarget } from './types.ts';

/** Runs the two checks; nothing without an RPC URL (the contract constants line says so). */
export async function checkAccountOnChain(target: PreflightTarget, rest: RestClient, report: (result: CheckResult) => void): Promise<void> {
  const rpcUrl = target.starknetRpcUrl;
  if (rpcUrl === undefined) return;
  const tokens = [target.base, target.quote];
  let chain;
  let api;
  try {
    [chain, api] = await Promise.all([readAccountOnChain(rpcUrl, target.chain, target.account, tokens), rest.userInfo()]);
  } catch (error) {
    report({ name: 'executor access', status: 'skip', detail: `not read: ${error instanceof Error ? error.message : String(error)}` });
    return;
  }
  if (chain.executorApproved) report({ name: 'executor access', status: 'pass', detail: `the executor ${target.chain.executorAddress} may settle the account's trades` });
  else report({ name: 'executor access', status: 'fail', detail: `the account has not granted the executor ${target.chain.executorAddress} access: trades cannot settle`, fix: 'akira-mm account grant-executor --env FILE (or account setup)' });
  const differences = tokens
    .map((token) => ({ token, chain: chain.balances.get(token.symbol) ?? 0n, api: api.balances.get(token.symbol)?.balance ?? 0n }))
    .filter((entry) => entry.chain !== entry.api)
    .map(({ token, chain: onChain, api: venue }) => `${token.symbol}: chain ${formatUnits(onChain, token.decimals)}, API ${formatUnits(venue, token.decimals)}`);
  if (differences.length === 0) report({ name: 'balances on chain', status: 'pass', detail: `the core contract holds what the API reports for ${tokens.map((token) => token.symbol).join(' and ')}` });
  else report({ name: 'balances on chain', status: 'fail', detail: differences.join('; '), fix: 'wait for pending deposits and rollups to land, then run akira-mm account settlement --env FILE --journal FILE' });
}
