import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillMarkouts, renderReportHtml } from '../../src/backtest/report-html.ts';
import { summarize } from '../../src/backtest/summary.ts';
import type { PathSample } from '../../src/backtest/stats.ts';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
// CI installs Debian's chromium (.ci/run); elsewhere the browser check runs when it is present.
const browserTest = CHROMIUM !== undefined || process.env['CI'] === 'true' ? it : it.skip;

const samples: PathSample[] = Array.from({ length: 120 }, (_, i) => ({
  timeMs: 1_723_161_600_000 + i * 1_000,
  mid: 2_000 + Math.sin(i / 10) * 2,
  bid: 1_999.5 + Math.sin(i / 10) * 2,
  ask: 2_000.5 + Math.sin(i / 10) * 2,
  inventory: Math.sin(i / 7) * 0.3,
  pnl: i / 10,
}));
const fills = [
  { timeMs: 1_723_161_605_000, side: 'buy' as const, price: 1_999.5, size: 0.1, isMaker: true },
  { timeMs: 1_723_161_640_500, side: 'sell' as const, price: 2_001.2, size: 0.1, isMaker: true },
];

function report(): string {
  const status = {
    state: 'stopped' as const,
    haltReason: undefined,
    pauseReason: undefined,
    mid: 2_000,
    bids: [],
    asks: [],
    baseBalance: 1,
    quoteBalance: 2_000,
    pnl: { realized: 1, unrealized: 0, total: 1, feesPaid: 0.1, gasPaid: 0, position: 0, averageCost: undefined, volumeBase: 0.2, fills: 2, makerFills: 2, takerFills: 0 },
    markouts: { meanBps: [1, 2, undefined], counts: [2, 2, 0] },
    twoSidedUptime: 0.9,
    fair: 2_000,
    position: 0,
    inventoryCap: 0.5,
    scorecard: {
      twoSidedUptime: 0.9,
      timeAtTouch: 0.2,
      capBreaches: 0,
      quotingMs: 120_000,
      ordersSent: 20,
      cancelsSent: 18,
      placedQtyUnits: 2n * 10n ** 18n,
      throttled: 0,
      gated: 0,
      rejected: 0,
      fills: 2,
      ordersPerFill: 10,
      fillRatio: 0.1,
      pnl: { spread: 1.2, inventory: -0.1, fees: 0.1, gas: 0, total: 1 },
    },
  };
  const summary = summarize({ events: 1_000, status, samples, fills, sampleMs: 1_000, wallSeconds: 0.01, startMs: samples[0]?.timeMs ?? 0, endMs: 1_723_161_720_000 });
  return renderReportHtml({ title: 'ETH/USDT ladder', summary, samples, fills, context: ['data: test'] });
}

describe('renderReportHtml', () => {
  it('is one self-contained file: no external script, style or image', () => {
    const html = report();
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+href=/);
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?https?:|url\(\s*["']?https?:|fetch\(|XMLHttpRequest/);
    expect(html).toContain('uPlot');
    expect(html).toContain('<th>pnl_quote</th><td>1</td>');
  });

  it('computes per-fill markouts from the sampled mid', () => {
    const markouts = fillMarkouts(fills, samples, 10_000);
    const midAfter = samples.find((s) => s.timeMs >= fills[0]!.timeMs + 10_000)?.mid ?? 0;
    expect(markouts[0]).toBeCloseTo(((midAfter - 1_999.5) * 10_000) / 1_999.5, 9);
  });

  browserTest('draws all four charts in headless Chromium', () => {
    if (CHROMIUM === undefined) throw new Error('chromium is not installed (Debian package `chromium`); .ci/run installs it');
    const dir = mkdtempSync(join(tmpdir(), 'akira-report-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, report());
    const dom = execFileSync(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${join(dir, 'profile')}`,
        '--virtual-time-budget=5000',
        '--dump-dom',
        `file://${file}`,
      ],
      { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    expect(dom).toContain('data-charts-drawn="4"');
    expect(dom.match(/<canvas/g)?.length).toBe(4);
  });
});
