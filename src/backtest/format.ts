/**
 * How backtest figures read to a person: durations as `10 min 50 s`, instants as UTC date-times,
 * amounts with their token and a sensible number of digits, shares as percentages. The terminal
 * summary and the HTML report print through these, so both say the same thing the same way.
 */

/** `650386` → `10 min 50 s`; below a minute with a decimal (`49.1 s`), above a day in days and hours. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  const sign = ms < 0 ? '−' : '';
  const abs = Math.abs(ms);
  if (abs < 1_000) return `${sign}${Math.round(abs)} ms`;
  if (abs < 60_000) return `${sign}${(abs / 1_000).toFixed(abs < 10_000 ? 2 : 1)} s`;
  const totalSeconds = Math.round(abs / 1_000);
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3_600);
  const minutes = Math.floor((totalSeconds % 3_600) / 60);
  const seconds = totalSeconds % 60;
  if (days > 0) return `${sign}${days} d ${hours} h ${minutes} min`;
  if (hours > 0) return `${sign}${hours} h ${minutes} min ${seconds} s`;
  return `${sign}${minutes} min ${seconds} s`;
}

/** Epoch ms → `2024-08-08 23:54:15.423 UTC`. */
export function formatUtc(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  return `${new Date(ms).toISOString().replace('T', ' ').replace('Z', '')} UTC`;
}

/** A number with thousands separators and at most `maxDecimals` decimals (trailing zeros dropped). */
export function formatNumber(value: number, maxDecimals = 0): string {
  if (!Number.isFinite(value)) return '–';
  const text = value.toLocaleString('en-US', { maximumFractionDigits: maxDecimals, minimumFractionDigits: 0 });
  return text.replace('-', '−');
}

/**
 * An amount of a token: 6 significant digits for small values, 2 decimals from 1,000 up, so
 * `0.01339084032` reads `0.0133908 USDT` and `61234.5678` reads `61,234.57 USDT`.
 */
export function formatAmount(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '–';
  if (value === 0) return `0 ${unit}`;
  const abs = Math.abs(value);
  const decimals = abs >= 1_000 ? 2 : Math.min(12, Math.max(0, 5 - Math.floor(Math.log10(abs))));
  return `${formatNumber(Number(value.toFixed(decimals)), decimals)} ${unit}`;
}

/** A share in [0, 1] as a percentage with one decimal: `0.943` → `94.3 %`. */
export function formatPercent(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '–';
  const percent = share * 100;
  // A small share keeps two significant digits: 1 fill in 2,992 orders is 0.033 %, not 0.0 %.
  if (percent !== 0 && Math.abs(percent) < 0.1) return `${Number(percent.toPrecision(2))} %`;
  return `${percent.toFixed(1)} %`;
}

/** Basis points with two decimals, or `–` when absent. */
export function formatBps(bps: number | null | undefined): string {
  if (bps === null || bps === undefined || !Number.isFinite(bps)) return '–';
  return `${formatNumber(Number(bps.toFixed(2)), 2)} bps`;
}

/** A plain ratio (Sharpe, orders per fill) with up to `decimals` decimals, or `–`. */
export function formatRatio(value: number | null | undefined, decimals = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return formatNumber(Number(value.toFixed(decimals)), decimals);
}
