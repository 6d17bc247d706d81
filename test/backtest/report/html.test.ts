import { describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../../src/backtest/report/html.ts';
import { deriveScorecard } from '../../../src/backtest/scorecard.ts';
import { attributesOf, hasBrowser, openInChromium } from './chromium.ts';
import { START_MS, fills, samples, summary } from './fixture.ts';

const units = { base: 'ETH', quote: 'USDT' };

function report(extraSummary: Record<string, number> = {}): string {
  const derived = deriveScorecard({ samples, fills: 2, activity: { ordersSent: 40, cancelsSent: 38, ordersFilled: 2 }, twoSidedUptime: 0.9, inventoryCapBase: 0.25 });
  return renderReportHtml({
    title: 'ETH/USDT ladder',
    summary: { ...summary(), ...extraSummary },
    samples,
    fills,
    context: ['data: test'],
    units,
    derived,
    inventoryCapBase: 0.25,
    tick: 0.01,
    lot: 0.0001,
  });
}

const TIME_CHARTS = ['price', 'pnl', 'inventory', 'distance', 'markouts'];
const TIME_LABEL = /^\d{2}:\d{2}(:\d{2})?$/;

describe('the backtest report', () => {
  it('is one self-contained file: no external script, style or image', () => {
    const html = report();
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+href=/);
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?https?:|url\(\s*["']?https?:|fetch\(|XMLHttpRequest/);
    expect(html).toContain('uPlot');
  });

  it('formats the summary for people: UTC times, durations, token units, percentages, the Sharpe horizon', () => {
    const html = report();
    expect(html).toContain('<th>simulated time</th><td>2 min 0 s (2024-08-09 00:00:00.000 UTC → 2024-08-09 00:02:00.000 UTC)</td>');
    expect(html).toContain('<th>PnL</th><td>1 USDT</td>');
    expect(html).toContain('<th>volume</th><td>0.2 ETH</td>');
    expect(html).toContain('<th>two-sided uptime</th><td>90.0 %</td>');
    expect(html).toContain('<th>Sharpe (per hour)</th>');
    expect(html).not.toMatch(/<td>1723161600000<\/td>/);
  });

  it('shows the scorecard from the summary where it has the key, and marks figures the report computed', () => {
    const derivedOnly = report();
    expect(derivedOnly).toMatch(/<td>orders sent<\/td>|<th>orders sent<\/th>/);
    expect(derivedOnly).toContain('<td>40 *</td>');
    expect(derivedOnly).toContain('<td>20 *</td>'); // orders per fill: 40 / 2
    const fromEngine = report({ orders_sent: 44, orders_per_fill: 22 });
    expect(fromEngine).toContain('<td>44</td>');
    expect(fromEngine).toContain('<td>22</td>');
    expect(fromEngine).not.toContain('<td>40 *</td>');
  });

  it('lists every fill with time, side, price, size, maker or taker, fee and markouts', () => {
    const html = report();
    expect(html).toContain('<td>00:00:05.000</td><td>buy</td><td>1999.5</td><td>0.1</td><td>maker</td><td>0.02</td>');
    expect(html).toContain('<td>00:00:40.500</td><td>sell</td><td>2001.2</td><td>0.1</td><td>taker</td><td>0.04</td>');
  });

  it('explains few fills when our quotes were rarely at the touch', () => {
    const html = report();
    expect(html).toMatch(/<div class="note" id="few-fills">Why so few fills: our quotes were at the touch only 10.0 % of the time we quoted, with the bid a median [\d.]+ bps \(\d+ ticks\) behind the best bid/);
  });

  (hasBrowser ? it : it.skip)('draws every chart in headless Chromium with data and time axes in the run\'s span (screenshot taken)', () => {
    const view = openInChromium(report(), { width: 1300, height: 3600 });
    expect(view.screenshot.subarray(1, 4).toString()).toBe('PNG');
    expect(view.screenshot.length).toBeGreaterThan(50_000);
    const body = attributesOf(`${view.dom.replace('<body', '<body id="body"')}`, 'body');
    expect(body['data-charts-expected']).toBe('6');
    expect(body['data-charts-drawn']).toBe('6');
    const startSeconds = START_MS / 1000;
    for (const id of TIME_CHARTS) {
      const chart = attributesOf(view.dom, id);
      expect(Number(chart['data-points']), id).toBeGreaterThan(0);
      expect(chart['data-x-kind'], id).toBe('time');
      // Times are the run's times (seconds since 1970 inside the run), never fill indexes.
      expect(Number(chart['data-x-min']), id).toBeGreaterThanOrEqual(startSeconds);
      expect(Number(chart['data-x-max']), id).toBeLessThanOrEqual(startSeconds + 121);
      const labels = JSON.parse(chart['data-x-labels'] ?? '[]') as string[];
      expect(labels.length, id).toBeGreaterThan(2);
      for (const label of labels) expect(label, id).toMatch(TIME_LABEL);
      expect(labels.some((label) => label.startsWith('00:0')), id).toBe(true);
      expect(Number.isFinite(Number(chart['data-y-min'])) && Number.isFinite(Number(chart['data-y-max'])), id).toBe(true);
    }
    const inventory = attributesOf(view.dom, 'inventory');
    expect(Number(inventory['data-y-max'])).toBeGreaterThanOrEqual(0.25); // the cap line is in range
    const histogram = attributesOf(view.dom, 'histogram');
    expect(histogram['data-x-kind']).toBe('bps');
    expect(Number(histogram['data-points'])).toBeGreaterThan(0);
    for (const label of JSON.parse(histogram['data-x-labels'] ?? '[]') as string[]) expect(label).toMatch(/^−?-?\d+(\.\d+)?$/);
  });
});
