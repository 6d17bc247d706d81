/**
 * The ablation's plan (tools/tables/ablation.ts): its rows, read from a text file of one row a
 * line so that a new signal is one more line, and the choice of each row's tuned values on the
 * first half. Pure: text and result lines in, plans out.
 */
import type { ResultLine } from './sweep-table.ts';

/** One row: a name, the env keys it sets, and the keys whose values the first half chooses. */
export interface AblationRow {
  readonly name: string;
  /** KEY → value; `@fit` = the weight the fit wrote for KEY. */
  readonly overlay: readonly (readonly [string, string])[];
  /** Env keys and their candidate values; the key {@link FIT_SCALE} scales every `@fit` weight of the overlay together. */
  readonly tune: readonly { readonly key: string; readonly values: readonly string[] }[];
}

/** The tuned "key" that multiplies the fitted weights (`@fit=1,4`): the fit's scale, not an env key. */
export const FIT_SCALE = '@fit';

const KEY = /^[A-Z][A-Z0-9_]*$/;

/**
 * Parses the rows file: `name | KEY=VALUE … | KEY=v1,v2,… …`, `#` comments and blank lines
 * skipped.
 * @throws Error naming the line and what is wrong with it.
 */
export function parseAblationRows(text: string, source = 'rows'): AblationRow[] {
  const rows: AblationRow[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `${source} line ${i + 1}`;
    const parts = line.split('|').map((part) => part.trim());
    if (parts.length > 3) throw new Error(`${where}: expected "name | KEY=VALUE … | KEY=v1,v2 …", got ${parts.length} parts`);
    const [name = '', overlayText = '', tuneText = ''] = parts;
    if (!/^[\w.+-]+$/.test(name)) throw new Error(`${where}: row name "${name}" must be one word (letters, digits, _ . + -)`);
    if (rows.some((row) => row.name === name)) throw new Error(`${where}: row ${name} is given twice`);
    const pairs = (part: string, what: string): [string, string][] =>
      part
        .split(/\s+/)
        .filter((word) => word !== '')
        .map((word) => {
          const at = word.indexOf('=');
          const key = word.slice(0, Math.max(0, at));
          const value = word.slice(at + 1);
          const isScale = what === 'tuned' && key === FIT_SCALE;
          if (at < 0 || !(KEY.test(key) || isScale) || value === '') throw new Error(`${where}: ${what} "${word}" is not KEY=VALUE with an env key${what === 'tuned' ? ` (or ${FIT_SCALE}=k1,k2 scaling the fitted weights)` : ''}`);
          return [key, value];
        });
    const overlay = pairs(overlayText, 'overlay');
    const tune = pairs(tuneText, 'tuned').map(([key, values]) => ({ key, values: values.split(',').filter((value) => value !== '') }));
    for (const { key, values } of tune) {
      if (values.length < 2) throw new Error(`${where}: tuned ${key} needs at least two values to choose from`);
      if (key === FIT_SCALE && !values.every((value) => Number.isFinite(Number(value)))) throw new Error(`${where}: ${FIT_SCALE}=${values.join(',')}: the scales of the fitted weights are numbers`);
      if (key === FIT_SCALE && !overlay.some(([, value]) => value === '@fit')) throw new Error(`${where}: ${FIT_SCALE} scales the overlay's @fit weights, and it has none`);
    }
    rows.push({ name, overlay, tune });
  });
  if (rows.length === 0) throw new Error(`${source}: no rows`);
  return rows;
}

/**
 * The overlay with each `@fit` replaced by the fitted weight of its key, times `scale` (rounded
 * to 4 decimals, as the fit writes them).
 * @throws Error for a key the fit wrote no weight for.
 */
export function resolveOverlay(row: AblationRow, fitted: Readonly<Record<string, string>>, scale = 1): [string, string][] {
  return row.overlay.map(([key, value]) => {
    if (value !== '@fit') return [key, value];
    const weight = fitted[key];
    if (weight === undefined) throw new Error(`row ${row.name}: ${key}=@fit but the fit wrote no ${key} (it writes ${Object.keys(fitted).join(', ') || 'nothing'})`);
    return [key, scale === 1 ? weight : String(Number((Number(weight) * scale).toFixed(4)))];
  });
}

/**
 * Per strategy, the tuned keys' values of the first-half cell with the highest PnL after fees
 * (`pnl_quote`); the first in grid order on a tie.
 * @throws Error when a strategy has no cell.
 */
export function chooseTuned(lines: readonly ResultLine[], strategies: readonly string[], keys: readonly string[]): Map<string, [string, string][]> {
  const chosen = new Map<string, [string, string][]>();
  for (const strategy of strategies) {
    let best: ResultLine | undefined;
    for (const line of [...lines].sort((a, b) => Number(a['cell'] ?? 0) - Number(b['cell'] ?? 0))) {
      if (line.params['STRATEGY'] !== strategy) continue;
      if (best === undefined || Number(line['pnl_quote']) > Number(best['pnl_quote'])) best = line;
    }
    if (best === undefined) throw new Error(`no first-half cell for STRATEGY=${strategy}`);
    const found = best;
    chosen.set(strategy, keys.map((key) => [key, found.params[key] ?? '?']));
  }
  return chosen;
}
