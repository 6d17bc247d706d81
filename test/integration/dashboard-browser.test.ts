/**
 * The dashboard as an operator sees it: `akira-mm paper` in process with its metrics port, `/`
 * opened in headless Chromium (driven by playwright-core), live updates waited for, every chart
 * checked for data, and every figure the page shows compared with a `/metrics` scrape taken
 * between two samples the page showed; a screenshot saved under the test's temporary directory.
 * The same for two pairs on one account, and (with the shared recordings) for a pair that reads
 * a reference market and hedges, whose basis and hedge charts then draw too. And a pair that
 * paused, resumed and halted (fed to the dashboard on a manual clock: paper rarely pauses), whose
 * state timeline marks each with its reason.
 *
 * Under CI=true a missing Chromium fails these tests; elsewhere they are skipped, saying so.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import type { CliIo } from '../../src/cli/io.ts';
import { ManualClock } from '../../src/core/index.ts';
import { startMetricsServer } from '../../src/engine/index.ts';
import { freePort } from '../../tools/chaos/bot-process.ts';
import { CHROMIUM, hasBrowser, launchChromium } from '../backtest/report/chromium.ts';
import { dataDir } from '../markets/binance/support.ts';
import { parseMetrics, rig, statusOf } from '../ops/dashboard/support.ts';
import { eventually } from './support.ts';

if (!hasBrowser) console.warn('dashboard browser tests skipped: no chromium here (Debian package `chromium`; under CI=true its absence fails them)');

/** The little of the DOM the page functions below touch: they run in the browser (the tsconfig has no DOM types). */
interface Element {
  readonly id: string;
  readonly hidden: boolean;
  readonly dataset: Readonly<Record<string, string | undefined>>;
  readonly textContent: string | null;
}
declare const document: { getElementById(id: string): Element | null; querySelectorAll(selector: string): Iterable<Element> & ArrayLike<Element>; readonly body: Element };

/** Series whose value moves with every read (a share of quoting time): a scrape between two samples lies between their values. */
const TIME_WEIGHTED = /^akira_mm_(two_sided_uptime|time_at_touch|quote_uptime)_ratio\{/;
/**
 * Gauges set on every reference tick, not once a sample: on a loaded machine the reference can
 * move more than once between the page's two samples, so the scrape may hold a value neither shows.
 * They are confirmed within a hair of one of them (far below any figure of another metric).
 */
const PER_TICK = /^akira_mm_reference_(fair_price|divergence_bps)\{/;
function isWithinTick(metric: string, m: number, page: number): boolean {
  return PER_TICK.test(metric) && Math.abs(m - page) <= (metric.includes('fair_price') ? Math.abs(page) * 1e-5 : 0.05);
}

/** The charts every pair draws once it has quoted and filled, and the account's. */
const PAIR_CHARTS = ['price', 'inventory', 'pnl', 'markouts', 'uptime', 'orders', 'throttling', 'timeline'];
const ACCOUNT_CHARTS = ['account-pnl', 'account-pairs'];

let browser: Browser | undefined;

beforeAll(async () => {
  if (hasBrowser) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

function quietIo(): CliIo {
  return { stdout: { write: () => undefined }, stderr: { write: () => undefined }, stdin: Readable.from(['']), env: {}, cwd: process.cwd() };
}

/** `paper` in process with its metrics port; `stop()` ends it as Ctrl-C does and resolves with its exit code. */
async function startPaper(args: readonly string[]): Promise<{ url: string; stop: () => Promise<number> }> {
  const port = await freePort();
  // --duration bounds the run should the test fail before stopping it; waits are generous, for a loaded machine.
  const running = main(['paper', '--metrics-port', String(port), '--duration', '900', ...args], quietIo());
  const url = `http://127.0.0.1:${port}`;
  await eventually(async () => ((await fetch(`${url}/health`).then((response) => response.json(), () => ({}))) as { state?: string }).state === 'quoting', 180_000, 'paper quoting');
  return {
    url,
    stop: () => {
      // What Ctrl-C does: paper listens for the signal (nothing else in this test process does).
      process.emit('SIGINT', 'SIGINT');
      return running;
    },
  };
}

/** What the page shows now: the last sample it drew and every figure with its series and value. */
interface PageFigures {
  readonly seq: number;
  readonly samples: number;
  readonly figures: ReadonlyMap<string, { readonly value: number; readonly text: string }>;
}

function readPage(page: Page): Promise<PageFigures> {
  return page
    .evaluate(() => {
      const live = document.getElementById('live') as Element;
      const figures = [...document.querySelectorAll('[data-metric]')].map((cell) => [cell.dataset['metric'] as string, Number(cell.dataset['value']), cell.textContent ?? ''] as const);
      return { seq: Number(live.dataset['seq']), samples: Number(live.dataset['samples']), figures };
    })
    .then(({ seq, samples, figures }) => ({ seq, samples, figures: new Map(figures.map(([metric, value, text]) => [metric, { value, text }])) }));
}

/** A figure's series in a scrape: one selector, or `sum(selector)` over every series with those labels. */
function scraped(metrics: ReadonlyMap<string, number>, metric: string): number | undefined {
  const sum = /^sum\((\w+)(?:\{(.*)\})?\)$/.exec(metric);
  if (sum === null) return metrics.get(metric);
  const wanted = [...(sum[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((match) => `${match[1]}="${match[2]}"`);
  let total = 0;
  // In the page's order (selectors sorted), so a float sum adds up the same way.
  for (const key of [...metrics.keys()].sort()) {
    if (key.startsWith(`${sum[1]}{`) && wanted.every((label) => key.includes(label))) total += metrics.get(key) as number;
  }
  return total;
}

/** The number a figure's text starts with, as the value it shows (a share shows as a percentage). */
function shown(text: string): number {
  if (text === 'yes') return 1;
  if (text === 'no') return 0;
  const number = Number(text.split(' ')[0]);
  return text.endsWith(' %') ? number / 100 : number;
}

/**
 * Compares every figure with /metrics: the page's figures (sample A), a scrape, then the page
 * again once it drew a sample taken after the scrape (B). A figure is confirmed when the scrape
 * equals it in a round where A and B agree, or, where it changed between them, equals one of
 * them (a time-weighted share lies between them). Rounds repeat until every figure is confirmed.
 * @returns the figures compared.
 */
async function compareWithMetrics(page: Page, url: string): Promise<string[]> {
  const confirmed = new Set<string>();
  const last = new Map<string, string>();
  let names: string[] = [];
  for (let round = 0; round < 30; round++) {
    // The page first catches up with the daemon's newest sample, so that (on a loaded machine,
    // where the page may lag) A and B are usually one sample apart and a value that moves every
    // second (the PnL marked at the fair price) is the scrape's on one side or the other.
    const { seq: newest } = (await (await fetch(`${url}/dashboard/state`)).json()) as { seq: number };
    await page.waitForFunction((seen) => Number(document.getElementById('live')?.dataset['seq']) >= seen, newest, { timeout: 30_000 });
    const before = await readPage(page);
    const metrics = parseMetrics(await (await fetch(`${url}/metrics`)).text());
    // The daemon's newest sample now is at or after the scrape: wait for a later one on the page.
    const { seq } = (await (await fetch(`${url}/dashboard/state`)).json()) as { seq: number };
    await page.waitForFunction((after) => Number(document.getElementById('live')?.dataset['seq']) > after, seq, { timeout: 30_000 });
    const after = await readPage(page);
    names = [...after.figures.keys()];
    for (const [metric, b] of after.figures) {
      const a = before.figures.get(metric);
      const m = scraped(metrics, metric);
      // The text shows the value (rounded for people).
      expect(Math.abs(shown(b.text) - b.value), `${metric}: "${b.text}" shows ${b.value}`).toBeLessThanOrEqual(Math.max(0.006, Math.abs(b.value) * 1e-4));
      if (a === undefined || m === undefined) {
        last.set(metric, `not in both reads (page ${a?.value} → ${b.value}, /metrics ${m})`);
        continue;
      }
      const between = (TIME_WEIGHTED.test(metric) && m >= Math.min(a.value, b.value) && m <= Math.max(a.value, b.value)) || isWithinTick(metric, m, a.value) || isWithinTick(metric, m, b.value);
      if ((a.value === b.value && m === a.value) || between || (a.value !== b.value && (m === a.value || m === b.value))) confirmed.add(metric);
      else last.set(metric, `page ${a.value} → ${b.value}, /metrics ${m}`);
    }
    if (names.every((metric) => confirmed.has(metric))) return names;
  }
  const open = names.filter((metric) => !confirmed.has(metric));
  throw new Error(`figures never matched /metrics:\n${open.map((metric) => `  ${metric}: ${last.get(metric)}`).join('\n')}`);
}

/** Opens the dashboard, waits for live samples and the fills' markouts, and checks charts and figures. */
async function checkDashboard(url: string, panels: { readonly pairs: readonly string[]; readonly extraCharts?: readonly string[]; readonly hidden?: readonly string[] }): Promise<string> {
  const page = await (browser as Browser).newPage({ viewport: { width: 1500, height: 1000 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  try {
    await page.goto(`${url}/`);
    // Live: the page counts samples arriving over the event stream.
    await page.waitForFunction(() => Number(document.getElementById('live')?.dataset['samples']) >= 3, null, { timeout: 30_000 });
    const first = await readPage(page);
    // Every pair filled and its first markouts are in (a fill, then a second later).
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-metric^="akira_mm_markout_bps{horizon=\\"1s\\""]').length >= count,
      panels.pairs.length,
      { timeout: 180_000 },
    );
    // And more samples keep arriving.
    await page.waitForFunction((seen) => Number(document.getElementById('live')?.dataset['samples']) > seen, first.samples, { timeout: 30_000 });

    const charts = await page.evaluate(() =>
      [...document.querySelectorAll('.chart')].map((chart) => ({ id: chart.id, hidden: chart.hidden, points: Number(chart.dataset['points'] ?? 0), xKind: chart.dataset['xKind'], drawn: chart.dataset['drawn'] === 'true' })),
    );
    const expected = [...ACCOUNT_CHARTS, ...panels.pairs.flatMap((id) => [...PAIR_CHARTS, ...(panels.extraCharts ?? [])].map((chart) => `${id}-${chart}`))];
    for (const id of expected) {
      const chart = charts.find((found) => found.id === id);
      expect(chart, id).toMatchObject({ hidden: false, drawn: true, xKind: 'time' });
      expect(chart?.points, `${id} holds data`).toBeGreaterThan(0);
    }
    for (const id of panels.hidden ?? []) expect(charts.find((found) => found.id === id)?.hidden, `${id} not drawn`).toBe(true);
    const body = await page.evaluate(() => ({ expected: document.body.dataset['chartsExpected'], drawn: document.body.dataset['chartsDrawn'] }));
    expect(body.drawn).toBe(body.expected);

    const compared = await compareWithMetrics(page, url);
    for (const pair of panels.pairs) {
      const name = await page.getAttribute(`#${pair}`, 'data-pair');
      for (const metric of ['akira_mm_pnl_total_quote{', 'akira_mm_pnl_spread_quote{', 'akira_mm_pnl_inventory_quote{', 'akira_mm_pnl_fees_quote{', 'akira_mm_pnl_gas_quote{', 'akira_mm_position_base{', 'akira_mm_inventory_cap_base{', 'akira_mm_markout_bps{horizon="1s"', 'akira_mm_two_sided_uptime_ratio{', 'akira_mm_orders_per_fill{', 'akira_mm_requests_throttled_total{', 'sum(akira_mm_fills_total{', 'sum(akira_mm_pauses_total{']) {
        expect(compared.some((shownMetric) => shownMetric.startsWith(metric) && shownMetric.includes(`pair="${name}"`)), `${name} shows ${metric}`).toBe(true);
      }
    }
    expect(compared.some((metric) => metric.startsWith('akira_mm_account_pnl_quote{'))).toBe(true);
    expect(compared.some((metric) => metric.startsWith('akira_mm_account_balance{'))).toBe(true);
    const fillRows = await page.locator('#p0 .events tr[data-kind="fill"]').count();
    expect(fillRows).toBeGreaterThan(0);
    expect(errors).toEqual([]);

    const screenshot = join(mkdtempSync(join(tmpdir(), 'akira-dashboard-')), 'dashboard.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log(`dashboard screenshot (${panels.pairs.length} pair${panels.pairs.length === 1 ? '' : 's'}): ${screenshot}`);
    return screenshot;
  } finally {
    await page.close();
  }
}

describe.skipIf(!hasBrowser)(`the live dashboard in headless Chromium (${CHROMIUM ?? 'none'})`, () => {
  it('paper, one pair: live charts hold data and every figure equals /metrics', { timeout: 480_000 }, async () => {
    const paper = await startPaper([]);
    try {
      await checkDashboard(paper.url, { pairs: ['p0'], hidden: ['p0-basis', 'p0-hedge'] });
    } finally {
      expect(await paper.stop()).toBe(0);
    }
  });

  it('paper, two pairs on one account: both pairs and the account, every figure equals /metrics', { timeout: 480_000 }, async () => {
    const paper = await startPaper(['--pairs', 'ETH/USDC,STRK/USDC']);
    try {
      await checkDashboard(paper.url, { pairs: ['p0', 'p1'] });
    } finally {
      expect(await paper.stop()).toBe(0);
    }
  });

  it('a pause, a resume and a halt are marked on the state timeline with their reasons', { timeout: 120_000 }, async () => {
    const clock = new ManualClock(1_700_000_000_000);
    const r = rig(clock);
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0, contentType: 'text/plain', metrics: () => r.metrics.registry.metrics(), health: () => ({ healthy: true, body: { state: 'quoting' } }), routes: r.dashboard.routes() });
    const page = await (browser as Browser).newPage({ viewport: { width: 1500, height: 1000 } });
    try {
      const observer = r.dashboard.observerOf(0);
      const step = async (change: () => void): Promise<void> => {
        clock.advance(1_000);
        change();
        await r.dashboard.sample();
      };
      await step(() => (r.status = statusOf()));
      await step(() => {
        observer.paused?.(true, 'reference stale');
        r.status = statusOf({ state: 'paused', pauseReason: 'reference stale', bids: [], asks: [] });
      });
      await step(() => {
        observer.paused?.(false, 'reference stale');
        r.status = statusOf();
      });
      await step(() => {
        observer.halted?.('drift: USDC 12 off the venue');
        r.status = statusOf({ state: 'halted', haltReason: { code: 'FATAL', message: 'drift: USDC 12 off the venue', atMs: clock.nowMs() }, bids: [], asks: [] });
      });
      await page.goto(`${server.url}/`);
      await page.waitForFunction(() => document.getElementById('p0-timeline')?.dataset['drawn'] === 'true', null, { timeout: 30_000 });
      const marks = JSON.parse((await page.getAttribute('#p0-timeline', 'data-marks')) ?? '[]') as unknown;
      expect(marks).toEqual([
        { timeMs: 1_700_000_002_000, kind: 'pause', state: 'paused', reason: 'reference stale' },
        { timeMs: 1_700_000_003_000, kind: 'resume', state: 'quoting', reason: 'reference stale' },
        { timeMs: 1_700_000_004_000, kind: 'halt', state: 'halted', reason: 'drift: USDC 12 off the venue' },
      ]);
      // Drawn: the four states plus a mark at each of the three seconds.
      expect(Number(await page.getAttribute('#p0-timeline', 'data-points'))).toBe(4 + 3);
      expect(await page.textContent('#p0 h2 .state')).toBe('halted: drift: USDC 12 off the venue');
      expect(await page.locator('#p0 .events tr[data-kind="pause"]').textContent()).toContain('reference stale');
    } finally {
      await page.close();
      r.dashboard.stop();
      await server.stop();
    }
  });

  it.skipIf(dataDir === undefined)('paper with a reference market and hedging: the basis and hedge charts draw too', { timeout: 480_000 }, async () => {
    const paper = await startPaper(['--hedge', '--reference']);
    try {
      await checkDashboard(paper.url, { pairs: ['p0'], extraCharts: ['basis', 'hedge'] });
    } finally {
      expect(await paper.stop()).toBe(0);
    }
  });
});
