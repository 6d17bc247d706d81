/**
 * `akira-mm backtest --data A.data --env A.env --data B.data --env B.env`: several pairs of one
 * trading account backtested together. Each `--env` takes the `--data` files given since the
 * previous `--env` (consecutive files of that pair's market, as with one pair); every other flag
 * applies to every pair. The recordings replay on one clock, merged in time order; each pair has
 * its own engine, strategy, parameters, caps and scorecard, and they share one account: one set of
 * balances (the pairs must share their quote token), the budgets, the outbound budget, the
 * ledger's drift check and the account limits, exactly as `run --env A --env B` shares them live.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseUnits } from '../core/index.ts';
import type { AccountBacktestResult, AccountSummary } from '../backtest/account/account-run.ts';
import type { BacktestResult } from '../backtest/run.ts';
import { escapeHtml, pageHtml, tableHtml } from '../backtest/report/page.ts';
import { summaryRows } from '../backtest/summary-rows.ts';
import { accountLimitsOf } from './account-files.ts';
import type { BacktestValues } from './backtest.ts';
import type { BacktestPlan, PreparedRun } from './backtest-plan.ts';
import type { FlagSpecs } from './args.ts';
import { UsageError, type CliIo } from './io.ts';

/** One pair of the command line: its recordings and its env file. */
export interface PairArgs {
  readonly data: readonly string[];
  readonly env: string;
}

/** Flags that describe one pair's extra markets or a grid: an account backtest takes none of them. */
const ONE_PAIR_ONLY = ['sweep', 'shard', 'jsonl', 'workers', 'hedge', 'hedge-latency-ms', 'hedge-min-notional', 'reference', 'reference-latency-ms'] as const;

/**
 * The pairs in command-line order: each `--env` with the `--data` files (and the extra file
 * arguments) given since the previous `--env`.
 * @throws UsageError when files follow the last `--env` or an `--env` has none.
 */
export function pairGroups(args: readonly string[], options: FlagSpecs): PairArgs[] {
  // The command's own option table, so a flag's value is never taken for a file.
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const [name, spec] of Object.entries(options)) config[name] = { type: spec.type, ...(spec.multiple === undefined ? {} : { multiple: spec.multiple }) };
  const { tokens } = parseArgs({ args: [...args], options: config, allowPositionals: true, strict: true, tokens: true });
  const groups: PairArgs[] = [];
  let files: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'option' && token.name === 'data' && token.value !== undefined) {
      files.push(token.value);
    } else if (token.kind === 'option' && token.name === 'env' && token.value !== undefined) {
      if (files.length === 0) throw new UsageError(`--env ${token.value} has no --data before it: each --env takes the --data files given since the previous --env`);
      groups.push({ data: files, env: token.value });
      files = [];
    } else if (token.kind === 'positional') {
      // `--data a b c`: the extra files arrive as positionals.
      files.push(token.value);
    }
  }
  if (files.length > 0) throw new UsageError(`--data ${files.join(' ')} after the last --env: with several pairs, each --env takes the --data files given before it`);
  return groups;
}

/** Runs an account backtest from the command line. */
export async function runAccountBacktestCommand(
  args: readonly string[],
  io: CliIo,
  values: BacktestValues,
  options: FlagSpecs,
  planOf: (values: BacktestValues, data: string[], env: string) => BacktestPlan,
): Promise<number> {
  for (const flag of ONE_PAIR_ONLY) {
    if (values[flag] !== undefined) throw new UsageError(`--${flag} backtests one pair: a backtest of several pairs on one account (several --env) takes none of --sweep, --hedge, --reference and their options`);
  }
  const groups = pairGroups(args, options);
  const initialQuote = values['initial-quote'];
  if (initialQuote !== undefined && !(/^\d+(\.\d+)?$/.test(initialQuote) && Number(initialQuote) > 0)) throw new UsageError(`--initial-quote=${initialQuote} is not a positive decimal number`);
  const { prepareRun } = await import('./backtest-plan.ts');
  const { runAccountBacktest } = await import('../backtest/account/account-run.ts');
  const { DataError } = await import('../backtest/data/index.ts');
  const { MmError } = await import('../core/index.ts');
  const { BudgetError } = await import('../engine/index.ts');
  const prepared = groups.map((group) => prepareRun(planOf(values, [...group.data], group.env)));
  const quote = (prepared[0] as PreparedRun).market.quote;
  let result: AccountBacktestResult;
  try {
    result = await runAccountBacktest({
      pairs: prepared.map((run) => {
        const { market, config, options } = run;
        const units = (value: (typeof config.engine)['BUDGET_BASE'], decimals: number): bigint | undefined => (value === 'auto' ? undefined : parseUnits(value.text, decimals, { rounding: 'down' }));
        return {
          pair: {
            name: `${market.base}/${market.quote}`,
            base: market.base,
            quote: market.quote,
            budgetBaseUnits: units(config.engine.BUDGET_BASE, market.baseDecimals),
            budgetQuoteUnits: units(config.engine.BUDGET_QUOTE, market.quoteDecimals),
          },
          source: options.source,
          strategy: options.strategy,
          settings: options.settings,
          venue: options.venue,
          initialBase: options.initialBase,
        };
      }),
      ...(initialQuote === undefined ? {} : { initialQuote: Number(initialQuote) }),
      limits: (balances) => {
        const decimals = (prepared[0] as PreparedRun).market.quoteDecimals;
        const held = new Map([...balances].map(([token, total]) => [token, { total, locked: 0n }]));
        return accountLimitsOf(
          prepared.map((run) => run.config),
          held,
          { symbol: quote, decimals },
        );
      },
    });
  } catch (error) {
    if (error instanceof DataError) throw new UsageError(`--data ${error.message}`);
    if (error instanceof MmError && (error.code === 'BACKTEST_ACCOUNT_MISMATCH' || error.code === 'BACKTEST_NO_BOOK')) throw new UsageError(error.message);
    if (error instanceof BudgetError) throw new UsageError(`BUDGET_BASE/BUDGET_QUOTE: ${error.message}`);
    throw error;
  }
  const { describeRun } = await import('./backtest-output.ts');
  const results = [...result.pairs.values()];
  const outputs = prepared.map((run, i) => describeRun(run, results[i] as BacktestResult));
  const names = [...result.pairs.keys()];
  io.stdout.write(`akira-mm backtest: ${names.length} pairs on one account (${names.join(', ')}), one clock\n\n`);
  outputs.forEach((output, i) => io.stdout.write(`── ${names[i]} ──\n${output.text}\n`));
  io.stdout.write(`${formatAccount(result.account)}\n`);
  if (values.report !== undefined) {
    const pairFiles = names.map((name) => values.report?.replace(/(\.html?)?$/i, (ext) => `.${name.replace('/', '-')}${ext === '' ? '.html' : ext}`) as string);
    try {
      outputs.forEach((output, i) => writeFileSync(pairFiles[i] as string, output.html()));
      writeFileSync(values.report, accountReportHtml(result, pairFiles));
    } catch (error) {
      throw new UsageError(`--report ${values.report}: cannot write it (${error instanceof Error ? error.message : String(error)})`);
    }
    io.stdout.write(`report: ${values.report} (the account; each pair: ${pairFiles.join(', ')})\n`);
  }
  if (values.json === true) io.stdout.write(`${JSON.stringify({ account: result.account, pairs: Object.fromEntries([...result.pairs].map(([name, pair]) => [name, pair.summary])) })}\n`);
  return 0;
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
function accountReportHtml(result: AccountBacktestResult, pairFiles: readonly string[]): string {
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
<details><summary>As JSON (the keys <code>--json</code> prints)</summary><pre>${escapeHtml(JSON.stringify({ account: result.account, pairs: Object.fromEntries([...result.pairs].map(([name, pair]) => [name, pair.summary])) }, null, 2))}</pre></details>`;
  return pageHtml({ title, body });
}
