import { describe, expect, it } from 'vitest';
import { describeSpan, formatFigure, parseResultLines, renderBreakEven, renderTable, verdict, withInterval, type ResultLine } from '../../../tools/tables/sweep-table.ts';

/** A thin sweep's lines, cut down: ladder at two arbitrage latencies that ran alike, and glft picked off at one. */
const base = { events: 1000, start_ms: 1_723_161_255_423, end_ms: 1_723_161_855_423, duration_s: 600, taker_fills: 0, background_maker_fills: 0 };
const FIXTURE = [
  { sweep_id: 's', cell: 0, params: { STRATEGY: 'ladder', 'thin-arb-latency-ms': '10' }, ...base, fills: 20, uninformed_fills: 20, arb_fills: 0, pickoff_cost_quote: 0, fees_quote: 0.2, volume_quote: 1000, pnl_quote: 0.1, pnl_quote_ci95: [0.05, 0.2], pnl_per_notional_bps: 1, pnl_per_notional_bps_ci95: [0.5, 2], markout_10s_bps: 1.5, markout_10s_bps_ci95: [-1, 3] },
  { sweep_id: 's', cell: 1, params: { STRATEGY: 'ladder', 'thin-arb-latency-ms': '250' }, ...base, fills: 20, uninformed_fills: 20, arb_fills: 0, pickoff_cost_quote: 0, fees_quote: 0.2, volume_quote: 1000, pnl_quote: 0.1, pnl_quote_ci95: [0.05, 0.2], pnl_per_notional_bps: 1, pnl_per_notional_bps_ci95: [0.5, 2], markout_10s_bps: 1.5, markout_10s_bps_ci95: [-1, 3] },
  { sweep_id: 's', cell: 2, params: { STRATEGY: 'glft', 'thin-arb-latency-ms': '10' }, ...base, fills: 30, uninformed_fills: 10, arb_fills: 20, pickoff_cost_quote: 1.5, fees_quote: 0.4, volume_quote: 2000, pnl_quote: -1, pnl_quote_ci95: [-2, -0.25], pnl_per_notional_bps: -5, pnl_per_notional_bps_ci95: [-9, -1], markout_10s_bps: -8, markout_10s_bps_ci95: [-12, -4] },
  { sweep_id: 's', cell: 3, params: { STRATEGY: 'glft', 'thin-arb-latency-ms': '250' }, ...base, fills: 12, taker_fills: 2, uninformed_fills: 10, arb_fills: 0, pickoff_cost_quote: 0, fees_quote: 0.3, volume_quote: 900, pnl_quote: 0.02, pnl_quote_ci95: null, pnl_per_notional_bps: 0.2222, pnl_per_notional_bps_ci95: null, markout_10s_bps: 0.5, markout_10s_bps_ci95: null },
]
  .map((line) => JSON.stringify(line))
  .join('\n');

describe('the results table of a sweep', () => {
  const lines = parseResultLines(`${FIXTURE}\n\n`);

  it('prints figures to about three significant digits with a true minus sign, and an interval beside each', () => {
    expect([formatFigure(1234.6), formatFigure(-12.34), formatFigure(0.0747), formatFigure(-0.0012), formatFigure(-0.00001), formatFigure(0)]).toEqual(['1235', '−12.3', '0.075', '−0.0012', '0.0000', '0']);
    expect(withInterval(-0.5, [-1, 0.25])).toBe('−0.500 [−1.00, 0.250]');
    expect(withInterval(null, [1, 2])).toBe('–');
    expect(withInterval(2, null, 3, 1)).toBe('7.00');
  });

  it('gives one row per cell with its intervals, PnL per day and the break-even maker fee, and merges cells that ran alike', () => {
    const table = renderTable(lines, { columns: ['thin-fills', 'pickoff', 'pnl', 'pnl-day', 'pnl-bps', 'break-even', 'verdict'], collapse: ['thin-arb-latency-ms'] }).split('\n');
    expect(table[0]).toBe('| STRATEGY | thin-arb-latency-ms | fills: uninformed / arb / bg | pick-off cost | PnL [95 %] | PnL per day [95 %] | PnL / notional, bp [95 %] | break-even maker fee, bp [95 %] | PnL interval |');
    expect(table).toHaveLength(5);
    // 600 s: a day is 144 times the run; fees are 2 bp of the notional, so the break-even fee is 1 + 2 bp.
    expect(table[2]).toBe('| ladder | 10, 250 | 20 / 0 / 0 | 0 | 0.100 [0.050, 0.200] | 14.4 [7.20, 28.8] | 1.00 [0.500, 2.00] | 3.00 [2.50, 4.00] | > 0 |');
    expect(table[3]).toBe('| glft | 10 | 10 / 20 / 0 | 1.50 | −1.00 [−2.00, −0.250] | −144 [−288, −36.0] | −5.00 [−9.00, −1.00] | −3.00 [−7.00, 1.00] | < 0 |');
    // Taker fills: their fee does not move with the maker fee, so no break-even is given; no interval, no verdict.
    expect(table[4]).toBe('| glft | 250 | 10 / 0 / 0 | 0 | 0.020 | 2.88 | 0.222 | – | – |');
  });

  it('keeps the cells apart without --collapse, in the order of the grid', () => {
    const table = renderTable(lines, { columns: ['fills'], params: ['thin-arb-latency-ms', 'STRATEGY'] }).split('\n');
    expect(table.slice(2)).toEqual(['| 10 | ladder | 20 |', '| 10 | glft | 30 |', '| 250 | ladder | 20 |', '| 250 | glft | 12 |']);
  });

  it('counts per strategy where the PnL interval lies and where the pick-offs overturned it', () => {
    expect(lines.map(verdict)).toEqual(['> 0', '> 0', '< 0', '–']);
    expect(renderBreakEven(lines, ['STRATEGY']).split('\n').slice(2)).toEqual(['| ladder | 2 | 2 | 0 | 0 | 3.00 / 3.00 / 3.00 | 0 | 0 |', '| glft | 2 | 0 | 0 | 1 | −3.00 / −3.00 / −3.00 | 1 | 1 |']);
  });

  it('groups the counts by several parameters at once', () => {
    const table = renderBreakEven(lines, ['STRATEGY', 'thin-arb-latency-ms']).split('\n');
    expect(table[0]).toBe('| STRATEGY | thin-arb-latency-ms | cells | PnL > 0 | PnL ∋ 0 | PnL < 0 | break-even maker fee, bp: min / median / max | cells with pick-offs | of them PnL < 0 |');
    expect(table[1]).toBe('|---|---|---:|---:|---:|---:|---:|---:|---:|');
    expect(table.slice(2)).toEqual(['| ladder | 10 | 1 | 1 | 0 | 0 | 3.00 / 3.00 / 3.00 | 0 | 0 |', '| ladder | 250 | 1 | 1 | 0 | 0 | 3.00 / 3.00 / 3.00 | 0 | 0 |', '| glft | 10 | 1 | 0 | 0 | 1 | −3.00 / −3.00 / −3.00 | 1 | 1 |', '| glft | 250 | 1 | 0 | 0 | 0 | – | 0 | 0 |']);
  });

  it('says where each row\'s interval lies against the point of its baseline row, the one with the same other parameters', () => {
    const ablation = parseResultLines(
      [
        { params: { strategy: 'glft', signals: 'none' }, pnl_quote: 0.5, pnl_quote_ci95: [0.1, 0.9] },
        { params: { strategy: 'glft', signals: 'obi', tuned: 'ALPHA_MAX_BPS=4' }, pnl_quote: 1, pnl_quote_ci95: [0.6, 1.4] },
        { params: { strategy: 'glft', signals: 'ofi', tuned: 'ALPHA_MAX_BPS=1' }, pnl_quote: 0.4, pnl_quote_ci95: [0.2, 0.7] },
        { params: { strategy: 'ladder', signals: 'obi' }, pnl_quote: -1, pnl_quote_ci95: [-2, -0.5] },
        { params: { strategy: 'ladder', signals: 'none' }, pnl_quote: 0, pnl_quote_ci95: [-0.4, 0.4] },
        { params: { strategy: 'ladder', signals: 'ofi' }, pnl_quote: 0.1, pnl_quote_ci95: null },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const table = renderTable(ablation, { columns: ['pnl'], params: ['strategy', 'signals', 'tuned'], baseline: { param: 'signals', value: 'none', figures: ['pnl_quote'] } }).split('\n');
    expect(table[0]).toBe('| strategy | signals | tuned | PnL [95 %] | pnl_quote vs none |');
    expect(table.slice(2).map((row) => row.split(' | ').slice(1, 2).concat(row.split(' | ').slice(-1)))).toEqual([
      ['none', 'baseline |'],
      ['obi', 'above |'],
      ['ofi', 'overlaps |'],
      // Rows follow the order each parameter's values first appear in: none, obi, ofi.
      ['none', 'baseline |'],
      ['obi', 'below |'],
      ['ofi', '– |'],
    ]);
  });

  it('names the span, the length and the events the cells share', () => {
    expect(describeSpan(lines)).toBe('2024-08-08 23:54 → 2024-08-09 00:04 UTC, 10.0 min, 1,000 events, 4 cells');
  });

  it('refuses a line that is not a result, naming it, and a column it does not know', () => {
    expect(() => parseResultLines('{"params":{}}\n{"fills":1}', 'sweep.jsonl')).toThrow('sweep.jsonl line 2: not a result line');
    expect(() => parseResultLines('nope')).toThrow('input line 1: not JSON');
    expect(() => renderTable(lines as ResultLine[], { columns: ['profit'] })).toThrow('column profit: not one of');
  });
});
