/**
 * `npx tsx tools/tables/robustness.ts FILE.jsonl…`: the thin venue's robustness map
 * (docs/thin-venue.md "Results"): sweeps of one assumed parameter at a time around the defaults,
 * each over the strategies (`--sweep STRATEGY=… --sweep P=v1,v2 --jsonl FILE`), printed as one row
 * per parameter value and one column per strategy: PnL with its 95 % interval, PnL per notional,
 * fills (of them picked off) and whether the interval clears zero. A file's first line names the
 * parameter it sweeps; `thin-taker-seed` rows are the defaults, and a last row gives each
 * strategy's PnL over those seeds as min / median / max.
 */
import { readFileSync } from 'node:fs';
import { formatFigure, parseResultLines, verdict, withInterval, type ResultLine } from './sweep-table.ts';

const SEED = 'thin-taker-seed';

function cell(line: ResultLine | undefined): string {
  if (line === undefined) return '–';
  const pnl = withInterval(line['pnl_quote'] as number, line['pnl_quote_ci95'] as readonly [number, number] | null);
  const perNotional = line['pnl_per_notional_bps'] === null ? '–' : `${formatFigure(line['pnl_per_notional_bps'] as number)} bp`;
  return `${pnl} (${perNotional}; ${String(line['fills'])} fills, ${String(line['arb_fills'])} picked off) ${verdict(line)}`;
}

function main(paths: readonly string[]): number {
  if (paths.length === 0) {
    process.stderr.write('usage: npx tsx tools/tables/robustness.ts FILE.jsonl…\n');
    return 2;
  }
  const lines = paths.flatMap((path) => parseResultLines(readFileSync(path, 'utf8'), path));
  const strategies = [...new Set(lines.map((line) => line.params['STRATEGY'] ?? '–'))];
  const rows = new Map<string, Map<string, ResultLine>>();
  for (const line of lines) {
    const [parameter, value] = Object.entries(line.params).find(([key]) => key !== 'STRATEGY') ?? ['–', '–'];
    const key = `${parameter} = ${value}${parameter === SEED && value === '1' ? ' (every default)' : ''}`;
    if (!rows.has(key)) rows.set(key, new Map());
    rows.get(key)?.set(line.params['STRATEGY'] ?? '–', line);
  }
  const out = [`| parameter = value | ${strategies.join(' | ')} |`, `|---|${strategies.map(() => '---').join('|')}|`];
  for (const [key, byStrategy] of rows) out.push(`| ${key} | ${strategies.map((strategy) => cell(byStrategy.get(strategy))).join(' | ')} |`);
  const seeded = lines.filter((line) => line.params[SEED] !== undefined);
  if (seeded.length > 0) {
    const spread = strategies.map((strategy) => {
      const pnls = seeded.filter((line) => line.params['STRATEGY'] === strategy).map((line) => line['pnl_quote'] as number).sort((a, b) => a - b);
      if (pnls.length === 0) return '–';
      const median = pnls.length % 2 === 1 ? (pnls[(pnls.length - 1) / 2] as number) : ((pnls[pnls.length / 2 - 1] as number) + (pnls[pnls.length / 2] as number)) / 2;
      return `${formatFigure(pnls[0] as number)} / ${formatFigure(median)} / ${formatFigure(pnls.at(-1) as number)}`;
    });
    out.push(`| PnL over the ${new Set(seeded.map((line) => line.params[SEED])).size} taker seeds: min / median / max | ${spread.join(' | ')} |`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
