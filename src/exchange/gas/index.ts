/** Public surface of the gas-fee builder. */
export { GasTracker, type GasSource, type GasTrackerOptions } from './gas-tracker.ts';
export {
  STRK_DECIMALS,
  buildGasFee,
  identityRate,
  maxGasPrice,
  quotePerStrk,
  rateFromBookMid,
  skewRate,
  type ConversionRateUnits,
} from './gas-fee.ts';
