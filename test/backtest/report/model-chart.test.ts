/** The backtest report draws the strategy's internals from the path samples, when it reports them. */
import { describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../../src/backtest/report/html.ts';
import { attributesOf, hasBrowser, openInChromium } from './chromium.ts';
import { fills, samples, summary } from './fixture.ts';

const units = { base: 'ETH', quote: 'USDT' };

describe('the backtest report with a model that reports its internals', () => {
  const withModel = samples.map((sample, i) => ({ ...sample, model: { sigmaBps: 1.2, arrivalA: 0.8, arrivalKPerBps: 0.25 - i * 0.001, arrivalFitWeight: 0.1, halfSpreadBps: 4 + i * 0.01, skewBps: -0.5 } }));
  const render = (input: typeof samples): string => renderReportHtml({ title: 'ETH/USDT glft', summary: summary(), samples: input, fills, context: ['data: test'], units, tick: 0.01, lot: 0.0001 });
  const html = render(withModel);

  it('has the two model charts and the values they draw, and none for a model without internals', () => {
    expect(html).toContain('<div class="chart" id="model-bps"></div><div class="chart" id="model-arrival"></div>');
    expect(html).toContain('"halfSpreadBps":[4,4.01');
    expect(render(samples)).not.toContain('id="model-bps"');
  });

  (hasBrowser ? it : it.skip)('draws half spread, skew and σ, then k, A and the fit weight against time in headless Chromium', () => {
    const view = openInChromium(html, { width: 1300, height: 4200 });
    const body = attributesOf(`${view.dom.replace('<body', '<body id="body"')}`, 'body');
    expect(body['data-charts-expected']).toBe(body['data-charts-drawn']);
    for (const id of ['model-bps', 'model-arrival']) {
      const chart = attributesOf(view.dom, id);
      expect(chart['data-x-kind']).toBe('time');
      // Three series on each, every sample drawn.
      expect(Number(chart['data-points'])).toBe(3 * withModel.length);
    }
  });
});
