/**
 * What a finished backtest prints and reports. A pair: the title and context, the formatted
 * summary, the scorecard and, when the run traded little, why; and the HTML report from the same
 * figures. Several pairs on one account: each pair's block, then the account's, and `--json`
 * `{"account":…,"pairs":…}`; the report is the account's page beside each pair's full report.
 */
import type { AccountSummary } from '../backtest/account-summary.ts';
import { renderReportHtml } from '../backtest/report/html.ts';
import { escapeHtml, pageHtml, tableHtml } from '../html/index.ts';
import { fewFillsContext, fewFillsNote } from '../backtest/report/series.ts';
import type { BacktestResult, PairResult } from '../backtest/run.ts';
import { formatSummary } from '../backtest/summary.ts';
import { scorecardRows, summaryRows } from '../backtest/summary-rows.ts';
import type { PreparedRun } from './backtest-plan.ts';

/** A pair's text for stdout, and its HTML report on demand. */
export interface RunOutput {
  readonly text: string;
  html(): string;
}

/** A run's text for stdout, its `--json` line, and the report files `--report PATH` writes. */
export interface AccountRunOutput {
  readonly text: string;
  readonly json: string;
  reports(path: string): { readonly files: readonly { readonly path: string; html(): string }[]; readonly line: string };
}

/** Describes a finished pair. */
export function describeRun(prepared: PreparedRun, result: PairResult): RunOutput {
  const { summary, samples } = result;
  const units = prepared.units;
  const market = { tick: prepared.market.tickValue, lot: prepared.market.lotValue, base: units.base };
  const scorecard = scorecardRows(summary, units);
  const width = Math.max(...scorecard.map((row) => row.label.length), 0);
  const note = fewFillsNote(samples, fewFillsContext(summary, market));
  const text = [
    prepared.title,
    ...prepared.context.map((line) => `  ${line}`),
    '',
    formatSummary(summary, units),
    '',
    'scorecard',
    ...scorecard.map((row) => `  ${row.label.padEnd(width)}  ${row.text}`),
    ...(note === undefined ? [] : ['', note]),
    '',
  ].join('\n');
  return {
    text,
    html: () => renderReportHtml({ title: prepared.title, summary, samples, fills: result.fills, context: prepared.context, units, tick: market.tick, lot: market.lot, markouts: result.markouts }),
  };
}

/** Describes a finished run: one pair as it always printed, several pairs with the account's figures. */
export function describeAccountRun(runs: readonly PreparedRun[], result: BacktestResult): AccountRunOutput {
  const names = [...result.pairs.keys()];
  const results = [...result.pairs.values()];
  const outputs = runs.map((run, i) => describeRun(run, results[i] as PairResult));
  const [first] = outputs;
  if (first === undefined) throw new Error('a backtest has a pair');
  if (outputs.length === 1) {
    return { text: first.text, json: JSON.stringify(result.summary), reports: (path) => ({ files: [{ path, html: first.html }], line: `report: ${path}` }) };
  }
  const json = { account: result.account, pairs: Object.fromEntries([...result.pairs].map(([name, pair]) => [name, pair.summary])) };
  return {
    text: [`akira-mm backtest: ${names.length} pairs on one account (${names.join(', ')}), one clock\n\n`, ...outputs.map((output, i) => `── ${names[i]} ──\n${output.text}\n`), `${formatAccount(result.account)}\n`].join(''),
    json: JSON.stringify(json),
    reports: (path) => {
      const pairFiles = names.map((name) => path.replace(/(\.html?)?$/i, (ext) => `.${name.replace('/', '-')}${ext === '' ? '.html' : ext}`));
      return {
        files: [...outputs.map((output, i) => ({ path: pairFiles[i] as string, html: output.html })), { path, html: () => accountReportHtml(result, pairFiles, json) }],
        line: `report: ${path} (the account; each pair: ${pairFiles.join(', ')})`,
      };
    },
  };
}

/** The account's rows: label and text. */
function accountRows(account: AccountSummary): [string, string][] {
  const q = account.quote;
  return [
    ['pairs', account.pairs.join(', ')],
    ['events', account.events.toLocaleString('en-US')],
    ['fills', `${account.fills} (${account.maker_fills} maker, ${account.taker_fills} taker)`],
    ['PnL', `${account.pnl_quote} ${q}`],
    ['fees / gas paid', `${account.fees_quote} ${q} / ${account.gas_quote} ${q}`],
    ['max drawdown', `${account.max_drawdown_quote} ${q}`],
    ['max open notional', `${account.max_open_notional_quote} ${q} (limit ${account.max_total_notional_limit_quote === 0 ? 'off' : `${account.max_total_notional_limit_quote} ${q}`})`],
    ['drawdown limit', account.max_drawdown_limit_quote === 0 ? 'off' : `${account.max_drawdown_limit_quote} ${q}`],
    ...Object.entries(account.budgets).map(([pair, funds]): [string, string] => [`budget ${pair}`, `${funds.base} ${pair.split('/')[0]} / ${funds.quote} ${q}`]),
    ['balances at start', Object.entries(account.start_balances).map(([token, amount]) => `${amount} ${token}`).join(', ')],
    ['balances at end', Object.entries(account.end_balances).map(([token, amount]) => `${amount} ${token}`).join(', ')],
    ['halted', account.halted ? `yes: ${account.halt_reason}` : account.halted_pairs.length > 0 ? `the account no; pairs ${account.halted_pairs.join(', ')}` : 'no'],
    ['speed', `${account.events_per_sec.toLocaleString('en-US')} events/s (${account.wall_s} s wall)`],
  ];
}

/** The account block of the text output. */
export function formatAccount(account: AccountSummary): string {
  const rows = accountRows(account);
  const width = Math.max(...rows.map(([label]) => label.length));
  return ['── account ──', ...rows.map(([label, text]) => `${label.padEnd(width)}  ${text}`), ''].join('\n');
}

/** The account's HTML page: its figures, each pair's summary, and a link to each pair's full report. */
function accountReportHtml(result: BacktestResult, pairFiles: readonly string[], json: unknown): string {
  const names = [...result.pairs.keys()];
  const title = `akira-mm backtest: ${names.join(' + ')} on one account`;
  const pairs = [...result.pairs].map(([name, pair], i) => {
    const [base, quote] = name.split('/') as [string, string];
    const link = (pairFiles[i] as string).split('/').pop() as string;
    return `<h2>${escapeHtml(name)}</h2><p><a href="${escapeHtml(link)}">the full report of ${escapeHtml(name)}</a></p>${tableHtml(summaryRows(pair.summary, { base, quote }).map((row) => [escapeHtml(row.label), escapeHtml(row.text)]))}`;
  });
  const body = `<h1>${escapeHtml(title)}</h1>
<h2>Account</h2>${tableHtml(accountRows(result.account).map(([label, text]) => [escapeHtml(label), escapeHtml(text)]))}
${pairs.join('\n')}
<details><summary>As JSON (the keys <code>--json</code> prints)</summary><pre>${escapeHtml(JSON.stringify(json, null, 2))}</pre></details>`;
  return pageHtml({ title, body });
}
