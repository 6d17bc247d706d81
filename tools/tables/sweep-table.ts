/**
 * Markdown tables from backtest results: the `--jsonl` lines of `akira-mm backtest --sweep` (or
 * any lines of the same shape, `{"params":{…}, …summary}`), one row per cell, each figure with its
 * 95 % interval (`*_ci95`, docs/strategies.md "Error bars"). The docs' result tables are printed by
 * this, so each row can be re-made by a command (docs/thin-venue.md "Results", docs/strategies.md
 * "Ablation"). Pure: text in, text out.
 */

/** An interval as the summary gives it; null or absent when the run had too little for one. */
type Interval = readonly [number, number] | null | undefined;

/** One result line: the cell's parameters and its summary's figures. */
export interface ResultLine {
  readonly params: Readonly<Record<string, string>>;
  readonly [key: string]: unknown;
}

/** A column of the table: its header and its cell text. */
interface Column {
  readonly header: string;
  readonly cell: (line: ResultLine) => string;
}

/**
 * Parses `--jsonl` text: one object a line, each with `params`; blank lines are skipped.
 * @throws Error naming the line that is not a result.
 */
export function parseResultLines(text: string, source = 'input'): ResultLine[] {
  return text
    .split('\n')
    .map((line, i) => ({ line: line.trim(), number: i + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, number }) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new Error(`${source} line ${number}: not JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
      }
      if (typeof value !== 'object' || value === null || typeof (value as { params?: unknown }).params !== 'object') throw new Error(`${source} line ${number}: not a result line (no "params" object)`);
      return value as ResultLine;
    });
}

function num(line: ResultLine, key: string): number | null {
  const value = line[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function interval(line: ResultLine, key: string): Interval {
  const value = line[`${key}_ci95`];
  return Array.isArray(value) && value.length === 2 && value.every((x) => typeof x === 'number') ? (value as unknown as readonly [number, number]) : null;
}

/** A figure as people read it: about three significant digits, a true minus sign. */
export function formatFigure(value: number): string {
  const abs = Math.abs(value);
  const decimals = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : abs >= 0.01 ? 3 : abs === 0 ? 0 : 4;
  const text = value.toFixed(decimals);
  return (/^-0(\.0*)?$/.test(text) ? text.slice(1) : text).replace('-', '−');
}

/** `x [lo, hi]`; `x` alone with no interval; `–` with no figure. */
export function withInterval(value: number | null, bounds: Interval, scale = 1, shift = 0): string {
  if (value === null) return '–';
  const text = formatFigure(value * scale + shift);
  return bounds === null || bounds === undefined ? text : `${text} [${formatFigure(bounds[0] * scale + shift)}, ${formatFigure(bounds[1] * scale + shift)}]`;
}

/**
 * Fees per notional, bps, when every fill made (paid the maker fee): then PnL before fees per
 * notional, which is the maker fee at which PnL after fees is 0, is PnL per notional plus it, and
 * so is each bootstrap replicate (the fee is a fixed share of the notional), so the interval shifts
 * by it exactly. Null with taker fills (their fee would not move with the maker fee) or no volume.
 */
function makerFeeBps(line: ResultLine): number | null {
  const fees = num(line, 'fees_quote');
  const volume = num(line, 'volume_quote');
  if (fees === null || volume === null || volume <= 0 || (num(line, 'taker_fills') ?? 0) > 0) return null;
  return (fees / volume) * 10_000;
}

/** Where the PnL's interval lies: wholly above zero, wholly below, or across it. */
export function verdict(line: ResultLine): '> 0' | '< 0' | '∋ 0' | '–' {
  const bounds = interval(line, 'pnl_quote');
  if (bounds === null || bounds === undefined) return '–';
  return bounds[0] > 0 ? '> 0' : bounds[1] < 0 ? '< 0' : '∋ 0';
}

const DAY_S = 86_400;

/** The columns by name (`--columns`). */
export const COLUMNS: Readonly<Record<string, Column>> = {
  fills: {
    header: 'fills',
    cell: (line) => String(num(line, 'fills') ?? '–'),
  },
  'thin-fills': {
    header: 'fills: uninformed / arb / bg',
    cell: (line) => ['uninformed_fills', 'arb_fills', 'background_maker_fills'].map((key) => String(num(line, key) ?? '–')).join(' / '),
  },
  pickoff: { header: 'pick-off cost', cell: (line) => withInterval(num(line, 'pickoff_cost_quote'), null) },
  fees: { header: 'fees', cell: (line) => withInterval(num(line, 'fees_quote'), null) },
  pnl: { header: 'PnL [95 %]', cell: (line) => withInterval(num(line, 'pnl_quote'), interval(line, 'pnl_quote')) },
  'pnl-day': {
    header: 'PnL per day [95 %]',
    cell: (line) => {
      const duration = num(line, 'duration_s');
      return duration === null || duration <= 0 ? '–' : withInterval(num(line, 'pnl_quote'), interval(line, 'pnl_quote'), DAY_S / duration);
    },
  },
  'pnl-bps': { header: 'PnL / notional, bp [95 %]', cell: (line) => withInterval(num(line, 'pnl_per_notional_bps'), interval(line, 'pnl_per_notional_bps')) },
  'break-even': {
    header: 'break-even maker fee, bp [95 %]',
    cell: (line) => {
      const fee = makerFeeBps(line);
      return fee === null ? '–' : withInterval(num(line, 'pnl_per_notional_bps'), interval(line, 'pnl_per_notional_bps'), 1, fee);
    },
  },
  'before-fees-bps': {
    header: 'before fees, bp of notional [95 %]',
    cell: (line) => {
      const fee = makerFeeBps(line);
      return fee === null ? '–' : withInterval(num(line, 'pnl_per_notional_bps'), interval(line, 'pnl_per_notional_bps'), 1, fee);
    },
  },
  verdict: { header: 'PnL interval', cell: verdict },
  'markout-1s': { header: 'markout 1 s, bp [95 %]', cell: (line) => withInterval(num(line, 'markout_1s_bps'), interval(line, 'markout_1s_bps')) },
  'markout-10s': { header: 'markout 10 s, bp [95 %]', cell: (line) => withInterval(num(line, 'markout_10s_bps'), interval(line, 'markout_10s_bps')) },
  uptime: { header: 'two-sided', cell: (line) => withInterval(num(line, 'two_sided_uptime'), null) },
  'orders-per-fill': { header: 'orders / fill', cell: (line) => withInterval(num(line, 'orders_per_fill'), null) },
};

/** Options of {@link renderTable}. */
export interface TableOptions {
  /** Parameter columns, in order; default every key of the first line's params, in its order. */
  readonly params?: readonly string[];
  /** Figure columns by name (keys of {@link COLUMNS}). */
  readonly columns: readonly string[];
  /**
   * Parameters whose values are merged into one row where the cells differ in nothing else and
   * their summaries are identical (e.g. the arbitrage latency when no arbitrageur came).
   */
  readonly collapse?: readonly string[];
  /**
   * Adds a column per figure comparing each row's interval of it with the point of its baseline:
   * the line with the same parameters but `param` = `value` (e.g. the ablation's no-signal row).
   */
  readonly baseline?: { readonly param: string; readonly value: string; readonly figures: readonly string[] };
}

/**
 * Where a line's interval of `figure` lies against its baseline's point: `above` (wholly above),
 * `below`, `overlaps`; `baseline` for the baseline itself; `–` with no interval or no baseline.
 */
export function againstBaseline(line: ResultLine, lines: readonly ResultLine[], baseline: { readonly param: string; readonly value: string; readonly figure: string }): string {
  if (line.params[baseline.param] === baseline.value) return 'baseline';
  const same = (other: ResultLine): boolean =>
    other.params[baseline.param] === baseline.value && Object.keys(line.params).every((key) => key === baseline.param || BASELINE_FREE.has(key) || other.params[key] === line.params[key]);
  const base = lines.find(same);
  const point = base === undefined ? null : num(base, baseline.figure);
  const bounds = interval(line, baseline.figure);
  if (point === null || bounds === null || bounds === undefined) return '–';
  return bounds[0] > point ? 'above' : bounds[1] < point ? 'below' : 'overlaps';
}

/** Parameters that say how a row was tuned, not which cell it is: a baseline need not share them. */
const BASELINE_FREE = new Set(['tuned']);

/** What a cell's summary says, without what names the cell: equal for cells that ran alike. */
function outcome(line: ResultLine): string {
  const { params: _params, cell: _cell, cells: _cells, sweep_id: _id, events_per_sec: _speed, ...rest } = line;
  return JSON.stringify(rest);
}

/**
 * The markdown table of `lines`, in their order.
 * @throws Error for an unknown column.
 */
export function renderTable(lines: readonly ResultLine[], options: TableOptions): string {
  const columns = options.columns.map((name) => COLUMNS[name] ?? unknownColumn(name));
  const params = options.params ?? Object.keys(lines[0]?.params ?? {});
  const rows = collapseRows(lines, params, options.collapse ?? []);
  const { baseline } = options;
  const extra: Column[] = (baseline?.figures ?? []).map((figure) => ({ header: `${figure} vs ${baseline?.value ?? ''}`, cell: (line) => againstBaseline(line, lines, { param: baseline?.param ?? '', value: baseline?.value ?? '', figure }) }));
  const all = [...columns, ...extra];
  const header = [...params, ...all.map((column) => column.header)];
  const align = [...params.map(() => '---'), ...all.map(() => '---:')];
  const body = rows.map(({ line, values }) => [...params.map((key) => values[key] ?? '–'), ...all.map((column) => column.cell(line))]);
  return [header, align, ...body].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function unknownColumn(name: string): never {
  throw new Error(`column ${name}: not one of ${Object.keys(COLUMNS).join(', ')}`);
}

/**
 * Rows after merging, for each `collapse` parameter in turn, its values where the cells differ in
 * nothing else and their outcome is the same; ordered by the parameters, each value in the order
 * it first appears (the sweep's grid order).
 */
function collapseRows(lines: readonly ResultLine[], params: readonly string[], collapse: readonly string[]): { line: ResultLine; values: Record<string, string> }[] {
  let rows = lines.map((line) => ({ line, values: Object.fromEntries(params.map((key) => [key, line.params[key] ?? '–'])) as Record<string, string>, first: { ...line.params } as Record<string, string | undefined> }));
  for (const name of collapse) {
    const merged: typeof rows = [];
    const byKey = new Map<string, (typeof rows)[number]>();
    for (const row of rows) {
      const key = JSON.stringify([params.filter((param) => param !== name).map((param) => row.values[param]), outcome(row.line)]);
      const same = byKey.get(key);
      if (same === undefined) {
        byKey.set(key, row);
        merged.push(row);
      } else same.values[name] = `${same.values[name] ?? '–'}, ${row.values[name] ?? '–'}`;
    }
    rows = merged;
  }
  const order = params.map((param) => [...new Set(lines.map((line) => line.params[param] ?? '–'))]);
  const rank = (row: (typeof rows)[number]): number[] => params.map((param, i) => (order[i] as string[]).indexOf(row.first[param] ?? '–'));
  return rows
    .map((row) => ({ row, rank: rank(row) }))
    .sort((a, b) => {
      for (let i = 0; i < a.rank.length; i++) if (a.rank[i] !== b.rank[i]) return (a.rank[i] as number) - (b.rank[i] as number);
      return 0;
    })
    .map(({ row }) => ({ line: row.line, values: row.values }));
}

/**
 * Per value of the `by` parameters (in the order they first appear): how many cells' PnL
 * intervals lie wholly above zero, wholly below or across it; the break-even maker fee's range;
 * the cells with pick-offs, and of those the ones whose PnL interval is wholly below zero.
 */
export function renderBreakEven(lines: readonly ResultLine[], by: readonly string[]): string {
  const groups = new Map<string, { values: string[]; lines: ResultLine[] }>();
  for (const line of lines) {
    const values = by.map((param) => line.params[param] ?? '–');
    const key = JSON.stringify(values);
    const group = groups.get(key) ?? { values, lines: [] };
    group.lines.push(line);
    groups.set(key, group);
  }
  const header = `| ${by.join(' | ')} | cells | PnL > 0 | PnL ∋ 0 | PnL < 0 | break-even maker fee, bp: min / median / max | cells with pick-offs | of them PnL < 0 |`;
  const align = `|${by.map(() => '---|').join('')}---:|---:|---:|---:|---:|---:|---:|`;
  const rows = [...groups.values()].map(({ values, lines: group }) => {
    const count = (v: ReturnType<typeof verdict>): number => group.filter((line) => verdict(line) === v).length;
    const fees = group.flatMap((line) => {
      const fee = makerFeeBps(line);
      const bps = num(line, 'pnl_per_notional_bps');
      return fee === null || bps === null ? [] : [bps + fee];
    });
    fees.sort((a, b) => a - b);
    const picked = group.filter((line) => (num(line, 'arb_fills') ?? 0) > 0);
    const spread = fees.length === 0 ? '–' : [fees[0], fees[Math.floor((fees.length - 1) / 2)], fees[fees.length - 1]].map((fee) => formatFigure(fee as number)).join(' / ');
    return `| ${values.join(' | ')} | ${group.length} | ${count('> 0')} | ${count('∋ 0')} | ${count('< 0')} | ${spread} | ${picked.length} | ${picked.filter((line) => verdict(line) === '< 0').length} |`;
  });
  return [header, align, ...rows].join('\n');
}

/** One line on the run the lines share: its span in UTC, its length and its events. */
export function describeSpan(lines: readonly ResultLine[]): string {
  const first = lines[0];
  if (first === undefined) return 'no results';
  const start = num(first, 'start_ms');
  const end = num(first, 'end_ms');
  const duration = num(first, 'duration_s');
  const events = num(first, 'events');
  const utc = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
  return [
    start === null || end === null ? undefined : `${utc(start)} → ${utc(end)} UTC`,
    duration === null ? undefined : `${formatFigure(duration / 60)} min`,
    events === null ? undefined : `${events.toLocaleString('en-US')} events`,
    `${lines.length} cells`,
  ]
    .filter((part) => part !== undefined)
    .join(', ');
}
