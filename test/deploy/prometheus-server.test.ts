/**
 * The shipped monitoring against a real Prometheus (Debian's `prometheus`, started on loopback by
 * the test, its TSDB in a temporary directory) scraping a real paper bot every second: `akira-mm
 * paper --hedge --reference` as a process, so the hedge and the reference market have data too.
 * Prometheus loads deploy/prometheus/rules.yml, and every rule evaluates without error; every alert
 * expression and every query of every panel of deploy/grafana/akira-mm.json parses and runs
 * through the HTTP API, and every panel query returns at least one series.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dataDir } from '../markets/binance/support.ts';
import { DASHBOARD_FILE, RULES_FILE, allRules, dashboardPanels, metricNamesIn, ruleGroups, rulesText, withVariables } from './monitoring-files.ts';
import { startPaper } from './paper-process.ts';
import { hasPrometheus, startPrometheus, type PromResponse, type PrometheusServer, type VectorSample } from './prometheus.ts';

function vector(response: PromResponse): VectorSample[] {
  expect(response.status, response.error).toBe('success');
  return (response.data as { resultType: string; result: VectorSample[] }).result;
}

/** Waits until `expression` has a series (on the scrapes Prometheus has taken so far). */
async function waitFor(prometheus: PrometheusServer, expression: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (vector(await prometheus.query(expression)).length === 0) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${expression}\n${prometheus.log()}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

describe.skipIf(!hasPrometheus || dataDir === undefined)('Prometheus scraping `akira-mm paper --hedge --reference`', () => {
  it('evaluates every rule without error, runs every alert expression, and finds data for every panel of the dashboard', { timeout: 480_000 }, async () => {
    const bot = await startPaper(['--hedge', '--reference']);
    const config = [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      '  - job_name: akira-mm',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${bot.metricsPort}']`,
    ].join('\n');
    let prometheus: PrometheusServer | undefined;
    try {
      prometheus = await startPrometheus(config, [RULES_FILE]);
      // Enough scrapes for a 20 s rate, a hedge sent, markouts measured, the reference read.
      await waitFor(prometheus, 'up{job="akira-mm"} == 1', 150_000);
      await waitFor(prometheus, 'sum(akira_mm_hedges_sent_total) > 0', 120_000);
      await waitFor(prometheus, 'akira_mm_markout_bps', 60_000);
      await waitFor(prometheus, 'akira_mm_reference_state{state="synchronised"} == 1', 60_000);
      await waitFor(prometheus, 'count_over_time(akira_mm_quoting[1m]) >= 25', 60_000);

      // The rules loaded as written, and every one evaluated without error.
      const loaded = (await prometheus.get('/api/v1/rules')).data as { groups: { name: string; rules: { name: string; health: string; lastError?: string }[] }[] };
      const ruleNames = (groups: readonly { name: string; rules: readonly { name?: string; alert?: string; record?: string }[] }[]): string[] =>
        groups.flatMap((group) => group.rules.map((rule) => `${group.name}/${rule.name ?? rule.alert ?? rule.record ?? ''}`)).sort();
      expect(ruleNames(loaded.groups)).toEqual(ruleNames(ruleGroups()));
      for (const group of loaded.groups) {
        for (const rule of group.rules) expect(`${rule.name}: ${rule.health} ${rule.lastError ?? ''}`.trim()).toBe(`${rule.name}: ok`);
      }

      // Every alert expression parses and runs against the bot's series.
      for (const rule of allRules()) {
        const response = await prometheus.query(rule.expr);
        expect(response.status, `${rule.alert ?? rule.record}: ${response.error ?? ''}`).toBe('success');
      }

      // Every panel's every query parses and returns at least one series.
      const empty: string[] = [];
      for (const panel of dashboardPanels()) {
        for (const target of panel.targets ?? []) {
          const response = await prometheus.query(withVariables(target.expr));
          expect(response.status, `${panel.title}: ${target.expr}: ${response.error ?? ''}`).toBe('success');
          if (vector(response).length === 0) empty.push(`${panel.title}: ${target.expr}`);
        }
      }
      expect(empty).toEqual([]);

      // Every metric the rules and the dashboard name is one Prometheus scraped from the bot.
      const scraped = new Set((await prometheus.get('/api/v1/label/__name__/values')).data as string[]);
      const named = [...metricNamesIn(rulesText()), ...metricNamesIn(readFileSync(DASHBOARD_FILE, 'utf8'))];
      expect(named.filter((name) => !scraped.has(name)).sort()).toEqual([]);
    } finally {
      const code = await bot.stop();
      await prometheus?.stop();
      expect(code, bot.output().slice(-2_000)).toBe(0);
    }
  });
});
