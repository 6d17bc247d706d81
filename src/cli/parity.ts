/**
 * `akira-mm parity --journal FILE --recording FILE… --env FILE [--json] [--report F.html]` (issue
 * 32 item 1; docs/parity.md): does the backtest tell the truth? A live or paper session's journal
 * (orders sent, acknowledgements, fills and fees, with times) beside the backtest of the recording
 * of the same span (`akira-mm record`, or the reference a paper session's flow followed), run
 * with the same pair file and the latency the session measured, compared side by side.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { getChain, getToken, isChainName } from '../core/index.ts';
import { integerFlag, parseFlags, type CommandHelp } from './args.ts';
import { BACKTEST_DEFAULTS } from './backtest-defaults.ts';
import { BACKTEST_OPTIONS, planFromFlags, type BacktestValues } from './backtest.ts';
import { THIN_OPTIONS, thinPlanFromFlags } from './backtest-thin.ts';
import { UsageError, type CommandRunner } from './io.ts';

const USAGE =
  'akira-mm parity --journal FILE --recording FILE… --env FILE [--venue thin|replay] [--latency-ms N] [--match-ms N] [--match-ticks N] [--bootstrap-block-ms N] [--thin-… X]… [--json] [--report out.html]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary:
    "Compares a live or paper session (its journal: `paper --journal FILE`) with the backtest of the recording of the same span, the same pair file and the session's measured latency: orders per side, fills matched one to one (each unmatched one with its cause), fill rate by distance from the mid, PnL and its parts, markouts at 1 s / 10 s / 60 s, orders per fill.",
  notes: ['Tolerances, causes and how each figure is measured: docs/parity.md. The backtest is the ordinary one (`akira-mm backtest --venue thin` by default) over the session\'s span of the recording.'],
};

const pick = <K extends keyof typeof BACKTEST_OPTIONS>(keys: readonly K[]): Pick<typeof BACKTEST_OPTIONS, K> => Object.fromEntries(keys.map((key) => [key, BACKTEST_OPTIONS[key]])) as Pick<typeof BACKTEST_OPTIONS, K>;

const OPTIONS = {
  journal: { type: 'string', value: 'FILE', required: true, doc: "the session's journal (`paper --journal FILE`, or `run --journal FILE` of a session that kept it whole)" },
  recording: {
    type: 'string',
    multiple: true,
    value: 'FILE',
    required: true,
    doc: "the market over the session's span in the replay format (`akira-mm record`, or `data import` of the reference a paper session's flow followed), back to back",
  },
  env: { type: 'string', value: 'FILE', required: true, doc: "the session's pair file (strategy, engine keys, BASE/QUOTE)" },
  'latency-ms': { type: 'string', value: 'N', unit: 'ms', default: "the session's median acknowledgement time / 2", doc: 'order latency of the backtest, each way' },
  clock: {
    type: 'string',
    value: 'receive|exchange',
    default: 'receive',
    doc: "the backtest replays the recording at its receive times, the clock the session heard the market on (a bot beside `akira-mm record`, or paper on a served recording), with no feed latency of its own; or at its exchange times, with the journal moved onto them by --clock-offset-ms (docs/parity.md \"Clocks\")",
  },
  'clock-offset-ms': {
    type: 'string',
    value: 'N',
    unit: 'ms',
    default: "0 with --clock receive; the recording's median exchange minus receive time with --clock exchange",
    doc: "added to the journal's times to put them on the backtest's clock (the journal is on the receiving machine's; docs/parity.md \"Clocks\"); may be negative",
  },
  'match-ms': { type: 'string', value: 'N', unit: 'ms', default: 1_000, doc: 'largest time difference of two fills matched as one' },
  'match-ticks': { type: 'string', value: 'N', unit: 'ticks', default: 0, doc: 'largest price difference of two fills matched as one' },
  tick: { ...BACKTEST_OPTIONS.tick, default: "the venue's, from the journal's start record (else the recording's)" },
  lot: { ...BACKTEST_OPTIONS.lot, default: "the venue's, from the journal's start record (else the recording's)" },
  'min-qty': { ...BACKTEST_OPTIONS['min-qty'], default: "the venue's, from the journal's start record (else one lot)" },
  'initial-base': { ...BACKTEST_OPTIONS['initial-base'], default: "the pair's funds as the session began (the journal's funds record), else the backtest's", doc: 'base held at the start' },
  'initial-quote': { ...BACKTEST_OPTIONS['initial-quote'], default: "the pair's funds as the session began (the journal's funds record), else --initial-base's value", doc: 'quote held at the start' },
  ...pick(['queue', 'latency-jitter-ms', 'feed-latency-ms', 'seed', 'maker-pbips', 'taker-pbips', 'strategy', 'set', 'bootstrap-samples']),
  'bootstrap-block-ms': { ...BACKTEST_OPTIONS['bootstrap-block-ms'], default: 5_000, doc: "error bars of the backtest's PnL: block length of the bootstrap (a session of minutes needs short blocks for twenty of them)" },
  venue: { type: 'string', value: 'thin|replay', default: 'thin', doc: 'the backtest quotes on a thin venue priced off the recording (a paper session on the embedded exchange), or on the recorded book itself (a live session on the recorded venue)' },
  ...THIN_OPTIONS,
  json: { type: 'boolean', doc: 'print the comparison as one JSON object on the last line' },
  report: { type: 'string', value: 'FILE', default: 'none', doc: "write the backtest's HTML report with the parity section in it" },
  'backtest-journal': { type: 'string', value: 'FILE', default: 'none', doc: "write the backtest's journal (the same records as the session's, on the exchange clock) to look at order by order" },
} as const;

type ParityValues = ReturnType<typeof parseFlags<typeof OPTIONS>>['values'];

/** BASE, QUOTE and the chain's decimals of the pair file (nothing else of it is needed here; the backtest reads the rest). */
function pairOf(path: string): { base: string; quote: string; baseDecimals: number; quoteDecimals: number } {
  let env: Record<string, string>;
  try {
    env = parseDotenv(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--env ${path}: cannot read it (${error instanceof Error ? error.message : String(error)})`);
  }
  const base = env['BASE'];
  const quote = env['QUOTE'];
  if (base === undefined || quote === undefined) throw new UsageError(`--env ${path}: BASE and QUOTE are needed (the pair the session traded)`);
  const chainName = env['CHAIN'] ?? 'mainnet';
  if (!isChainName(chainName)) throw new UsageError(`--env ${path}: CHAIN=${chainName} is not a chain`);
  const chain = getChain(chainName);
  const decimals = (symbol: string): number => {
    try {
      return getToken(chain, symbol).decimals;
    } catch {
      throw new UsageError(`--env ${path}: ${symbol} is not a token of ${chainName}`);
    }
  };
  return { base, quote, baseDecimals: decimals(base), quoteDecimals: decimals(quote) };
}

function clockOffsetFlag(text: string): number {
  if (!/^-?\d{1,9}$/.test(text)) throw new UsageError(`--clock-offset-ms=${text} is not a whole number of ms (negative when the journal's clock runs ahead of the exchange's)`);
  return Number(text);
}

/** The recordings as the backtest replays them: on their receive clock (copies in a directory removed after the run), or as they are. */
async function recordingsOnClock(paths: readonly string[], clock: 'receive' | 'exchange', work: (replayed: readonly string[]) => Promise<number>): Promise<number> {
  if (clock === 'exchange') return work(paths);
  const { copyOnReceiveClock } = await import('../backtest/data/index.ts');
  const dir = mkdtempSync(join(tmpdir(), 'akira-parity-'));
  try {
    const copies = paths.map((path, index) => {
      const copy = join(dir, `${index}-${basename(path)}`);
      copyOnReceiveClock(path, copy);
      return copy;
    });
    return await work(copies);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const runParity: CommandRunner = async (args, io) => {
  const { values, positionals } = parseFlags(args, OPTIONS, HELP);
  const clock = values.clock ?? 'receive';
  if (clock !== 'receive' && clock !== 'exchange') throw new UsageError(`--clock=${clock} is not one of receive, exchange`);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${USAGE}`);
  for (const flag of ['journal', 'recording', 'env'] as const) if (values[flag] === undefined) throw new UsageError(`--${flag} is required\nusage: ${USAGE}`);
  const recorded = (values.recording as string[]).map((path) => resolve(io.cwd, path));
  const data = await import('../backtest/data/index.ts');
  try {
    for (const path of recorded) data.readRecordingHeader(path);
  } catch (error) {
    if (error instanceof data.DataError) throw new UsageError(`--recording ${error.message}`);
    throw error;
  }
  return recordingsOnClock(recorded, clock, (recordings) => compareOnClock(values, { recorded, recordings }, clock, io));
};

/** The comparison, the backtest replaying `recordings` (the `recorded` files, or their copies on the receive clock). */
async function compareOnClock(values: ParityValues, { recorded, recordings }: { recorded: readonly string[]; recordings: readonly string[] }, clock: 'receive' | 'exchange', io: Parameters<CommandRunner>[1]): Promise<number> {
  const journalPath = resolve(io.cwd, values.journal as string);
  const envPath = resolve(io.cwd, values.env as string);
  const matchMs = integerFlag('match-ms', values['match-ms'], 1_000, 0, 600_000);
  const matchTicks = integerFlag('match-ticks', values['match-ticks'], 0, 0, 1_000);
  const { venue, thin } = thinPlanFromFlags({ ...values, venue: values.venue ?? 'thin' });

  const [{ ParityInputError, compareSessions, exchangeMinusReceiveMs, formatParity, loadMidSeries, median, parityJson, paritySectionHtml, readSessionTrace, shiftTrace, TextJournal }, data, plans] = await Promise.all([
    import('../backtest/parity/index.ts'),
    import('../backtest/data/index.ts'),
    import('./backtest-plan.ts'),
  ]);
  const pair = pairOf(envPath);
  const pairName = `${pair.base}/${pair.quote}`;
  let journalText: string;
  try {
    journalText = readFileSync(journalPath, 'utf8');
  } catch (error) {
    throw new UsageError(`--journal ${journalPath}: cannot read it (${error instanceof Error ? error.message : String(error)})`);
  }
  const fail = (error: unknown): never => {
    if (error instanceof ParityInputError) throw new UsageError(error.message);
    // A copy on the receive clock is named by the file it was made from.
    if (error instanceof data.DataError) throw new UsageError(`--recording ${recordings.reduce((text, copy, i) => text.split(copy).join(recorded[i] ?? copy), error.message)}`);
    throw error;
  };
  let live;
  let span;
  let headers;
  let clockOffsetMs: number;
  try {
    clockOffsetMs = values['clock-offset-ms'] !== undefined ? clockOffsetFlag(values['clock-offset-ms']) : clock === 'receive' ? 0 : await exchangeMinusReceiveMs(recordings);
    live = shiftTrace(readSessionTrace(journalText, pairName, pair, `--journal ${journalPath}`), clockOffsetMs);
    headers = recordings.map((path) => data.readRecordingHeader(path));
    span = data.recordingSpan(recordings);
  } catch (error) {
    return fail(error);
  }
  const header = headers[0] as (typeof headers)[number];
  const recordedBase = (header.base ?? header.symbol.replace(/(USDT|USDC|USD|BTC|ETH)$/i, '')).toUpperCase();
  if (recordedBase !== pair.base.toUpperCase()) {
    throw new UsageError(`--recording ${recorded[0]} is of ${header.market ?? header.symbol} (base ${recordedBase}); the session and --env ${envPath} trade ${pairName}: give the recording of ${pair.base}'s market over the session`);
  }
  const iso = (ms: number): string => new Date(ms).toISOString();
  const fromMs = Math.max(live.startMs, span.firstMs);
  const toMs = Math.min(live.endMs, span.lastMs);
  if (fromMs >= toMs) {
    throw new UsageError(
      `--journal and --recording do not overlap: the session ran ${iso(live.startMs - clockOffsetMs)} → ${iso(live.endMs - clockOffsetMs)} by its journal (${iso(live.startMs)} → ${iso(live.endMs)} on the exchange's clock, ${clockOffsetMs} ms on), the recording spans ${iso(span.firstMs)} → ${iso(span.lastMs)}; record the market while the session runs (akira-mm record), or replay the recording its flow followed`,
    );
  }
  if (fromMs > live.startMs || toMs < live.endMs) io.stderr.write(`parity: the recording covers ${iso(fromMs)} → ${iso(toMs)} of the session (${iso(live.startMs)} → ${iso(live.endMs)}); compared over that span only\n`);

  const measured = median(live.ackLatenciesMs);
  const latencyMs = values['latency-ms'] !== undefined ? integerFlag('latency-ms', values['latency-ms'], 0, 0, 60_000) : Math.round((measured ?? 0) / 2);
  const defaultFees = thin === undefined ? BACKTEST_DEFAULTS : (await import('../backtest/thin/index.ts')).LAYERAKIRA_FEES;
  // The backtest keeps amounts in the session's units (the chain's decimals of the pair), so both round alike.
  const backtestValues = {
    ...values,
    'latency-ms': String(latencyMs),
    // The venue's rules the session traded under (its journal's start record), unless the flags say otherwise.
    tick: values.tick ?? live.rules?.tick,
    lot: values.lot ?? live.rules?.lot,
    'min-qty': values['min-qty'] ?? live.rules?.minQty,
    // The funds the pair began with, so an inventory skew sees the same position.
    'initial-base': values['initial-base'] ?? live.funds?.base,
    // On the receive clock the recording's times are already when the session heard the market.
    'feed-latency-ms': values['feed-latency-ms'] ?? (clock === 'receive' ? '0' : undefined),
    'bootstrap-block-ms': values['bootstrap-block-ms'] ?? '5000',
    'base-decimals': String(pair.baseDecimals),
    'quote-decimals': String(pair.quoteDecimals),
  } as unknown as BacktestValues;
  const plan = planFromFlags(backtestValues, { data: recordings, hedge: [], reference: [], env: envPath }, [], { venue, thin, defaultFees }, { fromMs, toMs });
  const prepared = plans.prepareAccount({ pairs: [plan], initialQuote: values['initial-quote'] ?? (values['initial-base'] === undefined ? live.funds?.quote : undefined) });
  const journal = new TextJournal(pairName);
  const result = await plans.executeAccount({ ...prepared, options: { ...prepared.options, journal } });
  if (values['backtest-journal'] !== undefined) writeFileSync(resolve(io.cwd, values['backtest-journal']), journal.text());
  const run = prepared.runs[0] as (typeof prepared.runs)[number];
  let backtest;
  try {
    backtest = readSessionTrace(journal.text(), pairName, run.market, 'the backtest\'s journal');
  } catch (error) {
    return fail(error);
  }
  const clip = <T extends { timeMs?: number; sentMs?: number }>(items: readonly T[]): T[] => items.filter((item) => {
    const time = item.timeMs ?? item.sentMs ?? 0;
    return time >= fromMs && time <= toMs;
  });
  const liveInSpan = { ...live, orders: clip(live.orders), fills: clip(live.fills), startMs: fromMs, endMs: toMs };
  const mids = await loadMidSeries(recordings);
  const comparison = compareSessions(liveInSpan, { ...backtest, endMs: Math.max(backtest.endMs, toMs) }, mids, { timeMs: matchMs, ticks: matchTicks, tick: run.market.tickValue });
  // The backtest's interval is around its own pnl_quote (marked as its summary marks, gas in); moved onto the PnL measured here.
  const ci = result.summary.pnl_quote_ci95;
  const shift = comparison.backtest.pnl.total - result.summary.pnl_quote;
  const backtestPnlCi95 = ci === null ? null : ([ci[0] + shift, ci[1] + shift] as const);
  const verdict = {
    backtestPnlCi95,
    livePnlInside: backtestPnlCi95 === null ? null : comparison.live.pnl.total >= backtestPnlCi95[0] && comparison.live.pnl.total <= backtestPnlCi95[1],
    latencyMs,
    latencySource: values['latency-ms'] === undefined ? ('measured' as const) : ('flag' as const),
    clockOffsetMs,
    clock,
  };
  io.stdout.write(formatParity(comparison, verdict, pair.quote));
  if (values.report !== undefined) {
    const reportPath = resolve(io.cwd, values.report);
    const { describeAccountRun } = await import('./backtest-output.ts');
    const page = describeAccountRun(prepared.runs, result).reports(reportPath).files[0]?.html() ?? '';
    const section = paritySectionHtml(comparison, verdict, pair.quote);
    const at = page.indexOf('<h2');
    const html = at === -1 ? page.replace('</body>', `${section}\n</body>`) : `${page.slice(0, at)}${section}\n${page.slice(at)}`;
    try {
      writeFileSync(reportPath, html);
    } catch (error) {
      throw new UsageError(`--report ${reportPath}: cannot write it (${error instanceof Error ? error.message : String(error)})`);
    }
    io.stdout.write(`report: ${reportPath}\n`);
  }
  if (values.json === true) io.stdout.write(`${JSON.stringify(parityJson(comparison, verdict))}\n`);
  return 0;
}
