/** Gas charges of SPEC §5 / REFERENCE §5 "Gas charge" (SC Fees.cairo `get_gas_fee_and_coin`). */
import type { GasFee } from '../exchange/wire/requests.ts';

/**
 * Gas for `trades` actions of `steps` each at `gasPriceFri`, in the request's fee token:
 * `steps × price × trades` in STRK, else converted with the request's own rate [r0, r1]
 * ("r0 STRK is worth r1 fee token"), rounded down like the contract's integer division.
 */
export function gasCharge(steps: number, gasPriceFri: bigint, gasFee: GasFee, nativeGasToken: string, trades = 1): bigint {
  const native = BigInt(steps) * gasPriceFri * BigInt(trades);
  if (gasFee.feeToken.symbol === nativeGasToken) return native;
  const [r0, r1] = gasFee.conversionRate;
  if (r0 === 0n) return 0n;
  return (native * r1) / r0;
}

/** The most gas a request can be charged: its declared steps at its declared maximum price. */
export function gasCeiling(gasFee: GasFee, nativeGasToken: string, trades = 1): bigint {
  return gasCharge(gasFee.gasPerAction, gasFee.maxGasPrice, gasFee, nativeGasToken, trades);
}
