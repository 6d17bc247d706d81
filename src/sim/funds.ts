/**
 * Money leaving the venue's accounts outside trades (SPEC §5): withdraws and the gas of
 * increase-nonce, charged at the current gas price when the queued request is processed, with the
 * venue's reports on the private stream ("rollup tx report" on success, "fail report" otherwise,
 * REFERENCE §3.3). Funds were locked at acceptance; here they are spent or given back.
 */
import type { ChainInfo } from '../core/index.ts';
import { addressToHex } from '../exchange/wire/fields.ts';
import type { GasFee, IncreaseNonceRequest, WithdrawRequest } from '../exchange/wire/requests.ts';
import { reject } from './errors.ts';
import type { EngineListener } from './events.ts';
import { gasCharge } from './gas.ts';
import type { Ledger } from './ledger.ts';
import type { SimSettings } from './settings.ts';

/** What these steps read and write. */
export interface FundsDeps {
  readonly ledger: Ledger;
  readonly chain: ChainInfo;
  readonly settings: SimSettings;
  readonly listener: EngineListener;
  gasPriceFri(): bigint;
}

/**
 * Locks `amount` of `token` and `gas` of `gasToken` (possibly the same token), all or nothing.
 * @throws SimRejection NOT_ENOUGH_BALANCE naming the token, before anything moves.
 */
export function lockPair(ledger: Ledger, account: bigint, token: string, amount: bigint, gasToken: string, gas: bigint): void {
  const needs = new Map<string, bigint>([[token, amount]]);
  needs.set(gasToken, (needs.get(gasToken) ?? 0n) + gas);
  for (const [symbol, need] of needs) {
    const free = ledger.get(account, symbol).free;
    if (free < need) throw reject('NOT_ENOUGH_BALANCE', `needs ${need} base units of ${symbol}, ${free} available`);
  }
  for (const [symbol, need] of needs) ledger.tryLock(account, symbol, need);
}

/** Gives back what {@link lockPair} locked. */
export function unlockPair(ledger: Ledger, account: bigint, token: string, amount: bigint, gasToken: string, gas: bigint): void {
  ledger.unlock(account, token, amount);
  if (gas > 0n) ledger.unlock(account, gasToken, gas);
}

/** Gas at the current price, or the error name when the declared maximum is now too low. */
function chargeableGas(deps: FundsDeps, gasFee: GasFee, steps: number): bigint | 'WRONG_MAX_GAS_PRICE' {
  const price = deps.gasPriceFri();
  if (gasFee.maxGasPrice < price) return 'WRONG_MAX_GAS_PRICE';
  return gasCharge(steps, price, gasFee, deps.chain.nativeGasToken);
}

/**
 * The "rollup tx report" of a settled request; the sim has no chain, so the request hash stands in
 * for the tx. python_akira's `TxHashRollupReport` reads `tx_hash`, `order_hash` and `source`
 * unconditionally, so all three are sent (`order_hash` = the request's hash, like `req_hash`).
 */
export function settledReport(listener: EngineListener, account: bigint, source: string, hash: bigint, extra: Record<string, unknown>): void {
  const hex = addressToHex(hash);
  listener.onAccountReport({ account, market: undefined, result: { tx_hash: hex, order_hash: hex, req_hash: hex, source, ...extra } });
}

export function failReport(listener: EngineListener, account: bigint, reportType: string, hash: bigint, error: string): void {
  listener.onAccountReport({
    account,
    market: undefined,
    result: { report_type: reportType, req_hash: addressToHex(hash), entity_hash: addressToHex(hash), error_code_orderbook: error },
  });
}

/** Pays out a queued withdraw (amount and `lockedGas` were locked at acceptance). */
export function processWithdraw(deps: FundsDeps, request: WithdrawRequest, hash: bigint, lockedGas: bigint): void {
  const { ledger } = deps;
  const token = request.token.symbol;
  const gasToken = request.gasFee.feeToken.symbol;
  const gas = chargeableGas(deps, request.gasFee, deps.settings.steps.withdraw);
  if (gas === 'WRONG_MAX_GAS_PRICE') {
    unlockPair(ledger, request.maker, token, request.amount, gasToken, lockedGas);
    failReport(deps.listener, request.maker, 'WITHDRAW', hash, gas);
    return;
  }
  if (token === gasToken) {
    // The user receives amount − gas (REFERENCE §2.6).
    ledger.collect(request.maker, 'locked', 'gas', gasToken, gas);
    ledger.collect(request.maker, 'locked', 'withdrawn', token, request.amount - gas);
  } else {
    ledger.collect(request.maker, 'locked', 'withdrawn', token, request.amount);
    ledger.collect(request.maker, 'locked', 'gas', gasToken, gas);
    ledger.unlock(request.maker, gasToken, lockedGas - gas);
  }
  deps.listener.onWithdrawPaid?.({ request, paid: token === gasToken ? request.amount - gas : request.amount, gasPriceFri: deps.gasPriceFri() });
  settledReport(deps.listener, request.maker, 'withdraw', hash, { gas_paid: gas.toString() });
}

/**
 * Charges an increase-nonce's gas from its lock and returns it; undefined (lock returned, fail report sent)
 * when the gas price rose above its maximum or the nonce is no longer an increase.
 */
export function chargeNonceGas(deps: FundsDeps, request: IncreaseNonceRequest, hash: bigint, lockedGas: bigint, currentNonce: number): bigint | undefined {
  const { ledger } = deps;
  const gasToken = request.gasFee.feeToken.symbol;
  const gas = chargeableGas(deps, request.gasFee, deps.settings.steps.nonce);
  if (gas === 'WRONG_MAX_GAS_PRICE' || request.newNonce <= currentNonce) {
    ledger.unlock(request.maker, gasToken, lockedGas);
    failReport(deps.listener, request.maker, 'INCREASE_NONCE', hash, gas === 'WRONG_MAX_GAS_PRICE' ? gas : 'WRONG_NONCE');
    return undefined;
  }
  ledger.collect(request.maker, 'locked', 'gas', gasToken, gas);
  ledger.unlock(request.maker, gasToken, lockedGas - gas);
  return gas;
}
