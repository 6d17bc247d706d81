/**
 * `/metrics` of a real paper daemon (two pairs on one account, a child process, scraped over loopback)
 * follows the conventions alert rules and dashboards rely on (issue 25 item 4): counters are
 * counters named `_total` and nothing else is; the process is described once, with no `pair`
 * label; `akira_mm_build_info` names this build; every known label set exists at 0 before its
 * first event; the PnL total and its parts are separate names; the names that broke these rules
 * are still there, deprecated, with the values they always had. promtool, Prometheus's own strict
 * parser and linter, reads the same text where it is installed (CI).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startPaper } from '../deploy/paper-process.ts';
import { PROMTOOL, hasPrometheus, lintExposition } from '../deploy/prometheus.ts';
import { readExposition, valueOf, type Family } from './exposition.ts';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const PAIRS = ['ETH/USDC', 'STRK/USDC'];

/** The deprecated aliases of this release and what replaces each (README "Monitoring"). */
const DEPRECATED: Readonly<Record<string, string>> = {
  akira_mm_orders_sent: 'akira_mm_orders_sent_total',
  akira_mm_cancels_sent: 'akira_mm_cancels_sent_total',
  akira_mm_cap_breaches: 'akira_mm_cap_breaches_total',
  akira_mm_quote_uptime_ratio: 'akira_mm_two_sided_uptime_ratio',
  akira_mm_pnl_quote: 'akira_mm_pnl_<kind>_quote',
  akira_mm_process_resident_memory_bytes: 'process_resident_memory_bytes',
  akira_mm_process_heap_used_bytes: 'nodejs_heap_size_used_bytes',
  akira_mm_process_heap_total_bytes: 'nodejs_heap_size_total_bytes',
  akira_mm_process_external_memory_bytes: 'nodejs_external_memory_bytes',
};

/** prom-client's default gauges named `_total` (its standard names, which Node.js dashboards read); ours never are. */
const PROM_CLIENT_TOTAL_GAUGES = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** Scrapes a two-pair paper daemon once both pairs quote, then stops it. */
async function scrapePaperDaemon(): Promise<{ text: string; livez: Response; readyz: Response; code: number | null }> {
  const bot = await startPaper(['--pairs', PAIRS.join(',')]);
  try {
    const bothQuote = (text: string): boolean => PAIRS.every((pair) => new RegExp(`akira_mm_orders_placed_total\\{side="buy",pair="${pair}"\\} [1-9]`).test(text));
    const text = await bot.metricsOnceReady(bothQuote, 150_000);
    const [livez, readyz] = await Promise.all([fetch(`${bot.url}/livez`), fetch(`${bot.url}/readyz`)]);
    return { text, livez, readyz, code: await bot.stop() };
  } finally {
    await bot.stop();
  }
}

describe('/metrics of a paper daemon quoting two pairs', () => {
  const scraped = scrapePaperDaemon();

  it('names counters and only counters `_total`, and declares each family once', { timeout: 200_000 }, async () => {
    const families = readExposition((await scraped).text);
    expect(families.size).toBeGreaterThan(60);
    for (const family of families.values()) {
      if (family.type === 'counter') expect(family.name, `${family.name} is a counter`).toMatch(/_total$/);
      else if (!PROM_CLIENT_TOTAL_GAUGES.includes(family.name)) expect(family.name, `${family.name} is a ${family.type}`).not.toMatch(/_total$/);
    }
    for (const name of ['akira_mm_orders_sent_total', 'akira_mm_cancels_sent_total', 'akira_mm_cap_breaches_total', 'akira_mm_presign_hits_total', 'akira_mm_presign_misses_total', 'akira_mm_venue_rate_limited_total']) {
      expect(families.get(name)?.type, name).toBe('counter');
    }
  });

  it('describes the process once, with no pair label, beside akira_mm_build_info naming this build', { timeout: 200_000 }, async () => {
    const families = readExposition((await scraped).text);
    const processFamilies = [...families.values()].filter((family) => /^(process|nodejs)_/.test(family.name));
    expect(processFamilies.map((family) => family.name)).toEqual(expect.arrayContaining(['process_resident_memory_bytes', 'process_cpu_seconds_total', 'process_start_time_seconds', 'nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes']));
    for (const family of processFamilies) for (const sample of family.samples) expect(sample.labels, sample.name).not.toHaveProperty('pair');
    expect(families.get('process_resident_memory_bytes')?.samples).toHaveLength(1);
    expect(valueOf(families, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1_048_576);
    const build = families.get('akira_mm_build_info') as Family;
    expect(build.type).toBe('gauge');
    expect(build.samples).toEqual([{ name: 'akira_mm_build_info', labels: { version: PACKAGE_VERSION, node: process.version }, value: 1 }]);
  });

  it('has every known label set of each pair at 0 before its first event', { timeout: 200_000 }, async () => {
    const families = readExposition((await scraped).text);
    for (const pair of PAIRS) {
      expect(valueOf(families, 'akira_mm_pauses_total', { pair, reason: 'stale feed' })).toBe(0);
      expect(valueOf(families, 'akira_mm_pauses_total', { pair, reason: 'reference divergent' })).toBe(0);
      expect(valueOf(families, 'akira_mm_orders_rejected_total', { pair, side: 'buy', reason: 'SIGNER_REFUSED' })).toBe(0);
      expect(valueOf(families, 'akira_mm_reconcile_drift', { pair, token: 'base' })).toBe(0);
      expect(valueOf(families, 'akira_mm_reconcile_drift', { pair, token: 'quote' })).toBe(0);
      expect(valueOf(families, 'akira_mm_halts_total', { pair })).toBe(0);
      expect(valueOf(families, 'akira_mm_state', { pair, state: 'halted' })).toBe(0);
      expect(valueOf(families, 'akira_mm_state', { pair, state: 'quoting' })).toBe(1);
      expect(valueOf(families, 'akira_mm_pause_reason', { pair, reason: 'other' })).toBe(0);
      expect(families.get('akira_mm_fills_total')?.samples.filter((sample) => sample.labels['pair'] === pair)).toHaveLength(4);
    }
    expect(valueOf(families, 'akira_mm_account_pairs', { state: 'halted' })).toBe(0);
    expect(valueOf(families, 'akira_mm_account_pairs', { state: 'quoting' })).toBe(2);
    expect(valueOf(families, 'akira_mm_venue_rate_limited_total')).toBe(0);
    expect(families.get('akira_mm_wire_anomalies_total')?.samples.every((sample) => sample.value === 0)).toBe(true);
  });

  it('exports the PnL total and each part under its own name, the total equal to its parts', { timeout: 200_000 }, async () => {
    const families = readExposition((await scraped).text);
    for (const pair of PAIRS) {
      const value = (name: string): number => valueOf(families, `akira_mm_pnl_${name}_quote`, { pair });
      expect(value('total')).toBeCloseTo(value('realized') + value('unrealized'), 6);
      // Both splits hold the same total (the scorecard's test bounds their difference; here both are marked at one fair price).
      expect(value('spread') + value('inventory') - value('fees') - value('gas')).toBeCloseTo(value('total'), 1);
    }
  });

  it('keeps the wrong names of the last release as deprecated aliases naming their replacement, with the same values', { timeout: 200_000 }, async () => {
    const families = readExposition((await scraped).text);
    for (const [name, replacement] of Object.entries(DEPRECATED)) {
      const family = families.get(name);
      expect(family?.help, name).toMatch(new RegExp(`^deprecated: use ${replacement.replace(/[<>]/g, '.')}`));
      if (!replacement.includes('<')) expect(families.has(replacement), replacement).toBe(true);
    }
    for (const pair of PAIRS) {
      expect(valueOf(families, 'akira_mm_orders_sent', { pair })).toBe(valueOf(families, 'akira_mm_orders_sent_total', { pair }));
      expect(valueOf(families, 'akira_mm_pnl_quote', { pair, kind: 'spread' })).toBe(valueOf(families, 'akira_mm_pnl_spread_quote', { pair }));
      expect(valueOf(families, 'akira_mm_quote_uptime_ratio', { pair })).toBeCloseTo(valueOf(families, 'akira_mm_two_sided_uptime_ratio', { pair }), 2);
    }
  });

  it('answers /livez and /readyz while quoting, and stops cleanly', { timeout: 200_000 }, async () => {
    const { livez, readyz, code } = await scraped;
    expect([livez.status, await livez.text()]).toEqual([200, 'alive\n']);
    expect([readyz.status, await readyz.text()]).toEqual([200, 'ready\n']);
    expect(code).toBe(0);
  });

  (hasPrometheus ? it : it.skip)("passes promtool's strict parser and linter, but for prom-client's three `_total` gauges", { timeout: 200_000 }, async () => {
    expect(PROMTOOL, 'promtool (Debian package prometheus) must be installed in CI').toBeDefined();
    const problems = await lintExposition((await scraped).text);
    expect(problems.sort()).toEqual(PROM_CLIENT_TOTAL_GAUGES.map((name) => `${name} non-counter metrics should not have "_total" suffix`));
  });
});
