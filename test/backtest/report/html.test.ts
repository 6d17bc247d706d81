import { describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../../src/backtest/report/html.ts';
import { attributesOf, hasBrowser, openInChromium } from './chromium.ts';
import { START_MS, fills, manyFills, samples, summary } from './fixture.ts';
import { histogram } from '../../../src/backtest/report/series.ts';

const units = { base: 'ETH', quote: 'USDT' };

function report(scorecard: { ordersSent?: number; timeAtTouch?: number } = {}): string {
  return renderReportHtml({ title: 'ETH/USDT ladder', summary: summary(scorecard), samples, fills, context: ['data: test'], units, tick: 0.01, lot: 0.0001 });
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
    expect(html).toMatch(/<th>PnL<\/th><td>1 \[[−\d.]+, [−\d.]+\] USDT<\/td>/);
    expect(html).toContain('<th>volume</th><td>0.2 ETH</td>');
    expect(html).toContain('<th>two-sided uptime</th><td>90.0 %</td>');
    expect(html).toContain('<th>Sharpe (per hour)</th>');
    expect(html).not.toMatch(/<td>1723161600000<\/td>/);
  });

  it("shows the engine's scorecard and PnL split from the summary, each with its key and meaning", () => {
    const html = report({ ordersSent: 44 });
    expect(html).toContain('<tr><th>orders sent</th><td>44</td><td><code>orders_sent</code></td>');
    expect(html).toContain('<tr><th>orders per fill</th><td>22</td>');
    expect(html).toContain('<tr><th>time at the touch</th><td>10.0 %</td>');
    expect(html).toContain('<tr><th>held by the budget</th><td>3</td>');
    expect(html).toContain('<tr><th>PnL from spread</th><td>9.6 USDT</td>');
    expect(html).toContain('<tr><th>PnL from inventory</th><td>3.6 USDT</td>');
    // Old result lines without the keys show what they have.
    const { orders_sent: _dropped, ...older } = summary();
    expect(renderReportHtml({ title: 't', summary: older as never, samples, fills, context: [] })).not.toContain('<code>orders_sent</code>');
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
    expect(body['data-charts-expected']).toBe('7');
    expect(body['data-charts-drawn']).toBe('7');
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

describe('the backtest report\'s markouts and error bars', () => {
  // 5 s blocks: the 2-minute run spans 24 of them (an interval needs 20).
  const bootstrap = { blockMs: 5_000, samples: 300, seed: 1 };
  const runSummary = summary({}, { fills: manyFills, bootstrap });
  const html = renderReportHtml({ title: 'ETH/USDT ladder', summary: runSummary, samples, fills: manyFills, context: ['data: test'], units, tick: 0.01, lot: 0.0001 });

  it('shows the PnL and each markout horizon with its 95 % interval, and how the intervals were drawn', () => {
    expect(html).toMatch(/<th>PnL<\/th><td>1 \[[−\d.]+, [−\d.]+\] USDT<\/td>/);
    expect(html).toMatch(/<th>markout 10 s<\/th><td>[−\d.]+ \[[−\d.]+, [−\d.]+\] bps<\/td>/);
    expect(html).toContain('<th>error bars</th><td>95 % intervals [low, high]: block bootstrap over time, expanded percentile (t-corrected), 5 s blocks over 24 blocks, 300 samples, seed 1</td>');
  });

  it('gives the fills table a mean row equal to the headline markout, both over every fill whose horizon ended in the run, and says so', () => {
    const mean = /<b id="markout-mean-10000">([−\d.]+) bps \((\d+) fills\)<\/b>/.exec(html);
    expect(mean?.[1]).toBe(String(Number((runSummary.markout_10s_bps as number).toFixed(2))).replace('-', '−'));
    // Fills within 10 s of the end have no 10 s markout: left out of both.
    expect(Number(mean?.[2])).toBe(runSummary.markout_curve_fills[6]);
    expect(Number(mean?.[2])).toBeLessThan(manyFills.length);
    expect(html).toContain('the fills table&#39;s mean row is the same figure');
  });

  it('bins the 10 s histogram with the largest markout inside the last bin', () => {
    const values = [-7.2, -3, 0.4, 2.5, 9.99, 10];
    const bars = histogram(values);
    const last = (bars.centers[bars.centers.length - 1] as number) + bars.binWidth / 2;
    expect(last).toBeGreaterThan(10);
    expect(bars.counts.reduce((sum, count) => sum + count, 0)).toBe(values.length);
  });

  (hasBrowser ? it : it.skip)('draws the markout curve from 100 ms to 60 s with its band, legends with values before any hover, and whole histogram bars', () => {
    const view = openInChromium(html, { width: 1300, height: 4200 });
    const curve = attributesOf(view.dom, 'markout-curve');
    expect(Number(curve['data-x-min'])).toBe(0.1);
    expect(Number(curve['data-x-max'])).toBe(60);
    // The mean and both bounds of the band have points (the 60 s bounds need fills 60 s before the end).
    const legend = JSON.parse(curve['data-legend'] ?? '[]') as (string | null)[];
    expect(legend).toHaveLength(3);
    for (const value of legend) expect(value).toMatch(/^−?-?\d/);
    expect(Number(curve['data-points'])).toBeGreaterThanOrEqual(3 * 8);
    expect(curve['data-bands']).toBe('1');
    // Every chart's legend shows values without the mouse: no "--" placeholder anywhere.
    for (const id of ['price', 'pnl', 'inventory', 'distance', 'markouts', 'histogram', 'markout-curve']) {
      const values = JSON.parse(attributesOf(view.dom, id)['data-legend'] ?? '[]') as (string | null)[];
      expect(values.length, id).toBeGreaterThan(0);
      expect(values.some((value) => value !== null && value !== '--' && value !== ''), id).toBe(true);
    }
    expect(view.dom).not.toMatch(/<td class="u-value">--<\/td>/);
    // The histogram's x axis runs from the first bin's low edge to the last bin's high edge: no bar is cut.
    const bars = attributesOf(view.dom, 'histogram');
    const drawn = JSON.parse(html.slice(html.indexOf('window.REPORT = ') + 16, html.indexOf(';</script>', html.indexOf('window.REPORT = ')))) as { histogram: { centers: number[]; binWidth: number } };
    const { centers, binWidth } = drawn.histogram;
    expect(Number(bars['data-scale-x-min'])).toBeCloseTo((centers[0] as number) - binWidth / 2, 9);
    expect(Number(bars['data-scale-x-max'])).toBeCloseTo((centers[centers.length - 1] as number) + binWidth / 2, 9);
  });
});

describe('the backtest report with a reference market', () => {
  const withReference = samples.map((sample) => ({ ...sample, referenceFair: sample.mid === undefined ? undefined : sample.mid * 1.0001, basisBps: 1 }));
  const html = renderReportHtml({ title: 'ETH/USDT glft', summary: { ...summary(), reference_pauses: 2, basis_bps_mean: 1 }, samples: withReference, fills, context: ['data: test'], units, tick: 0.01, lot: 0.0001 });

  it('shows the basis in the summary and a basis chart, and none without a reference', () => {
    expect(html).toContain('<div class="chart" id="basis"></div>');
    expect(html).toContain('<th>reference</th><td>basis mean 1 bps, 2 pauses</td>');
    expect(report()).not.toContain('id="basis"');
  });

  (hasBrowser ? it : it.skip)('draws the reference fair price on the price chart and the basis against time in headless Chromium', () => {
    const view = openInChromium(html, { width: 1300, height: 3800 });
    const body = attributesOf(`${view.dom.replace('<body', '<body id="body"')}`, 'body');
    expect(body['data-charts-expected']).toBe('8');
    expect(body['data-charts-drawn']).toBe('8');
    const basis = attributesOf(view.dom, 'basis');
    expect(basis['data-x-kind']).toBe('time');
    expect(Number(basis['data-points'])).toBe(withReference.length);
  });
});
