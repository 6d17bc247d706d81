/**
 * The shipped monitoring (issue 25 item 5) without a Prometheus server: deploy/prometheus/rules.yml
 * passes `promtool check rules` and its unit tests (`promtool test rules` on the fixtures of
 * deploy/prometheus/tests), alerts on every condition the daemon's notifier alerts on with the
 * notifier's default thresholds, and every metric the rules and deploy/grafana/akira-mm.json name
 * is in the /metrics of a paper daemon with a hedge and a reference market. The same files against
 * a running Prometheus: prometheus-server.test.ts.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALERT_EVENT_KINDS, ALERT_KEYS } from '../../src/config/index.ts';
import { readExposition } from '../cli/exposition.ts';
import { dataDir } from '../markets/binance/support.ts';
import { DASHBOARD_FILE, RULES_FILE, RULES_TEST_FILES, alertRule, allPanels, allRules, dashboard, dashboardPanels, metricNamesIn, recordedNamesIn, rulesText } from './monitoring-files.ts';
import { startPaper } from './paper-process.ts';
import { PROMTOOL, hasPrometheus, promtool } from './prometheus.ts';

/** The alerts of rules.yml that stand for each kind of event the notifier sends (src/ops). */
const ALERTS_OF_NOTIFIER_KIND: Readonly<Record<(typeof ALERT_EVENT_KINDS)[number], readonly string[]>> = {
  halt: ['AkiraMmPairHalted', 'AkiraMmAccountHalted', 'AkiraMmHedgeHalted'],
  pause: ['AkiraMmPausedTooLong'],
  drift: ['AkiraMmBalanceDrift'],
  hedge: ['AkiraMmHedgeFailing', 'AkiraMmHedgeStreamDown'],
  reference: ['AkiraMmReferenceUnusable', 'AkiraMmReferenceDivergent'],
  'reconnect-storm': ['AkiraMmReconnectStorm'],
  '429-storm': ['AkiraMm429Storm'],
  'low-balance': ['AkiraMmBalanceLow'],
  // The summary is a report, not a condition; its alerting half is a bad day.
  'daily-summary': ['AkiraMmDailyLoss'],
};

/** A Prometheus duration (`1m`, `90s`, `0m`) in seconds. */
function seconds(duration: string | undefined): number {
  const match = /^(\d+)([smh])$/.exec(duration ?? '0s');
  if (match === null) throw new Error(`not a duration: ${duration}`);
  return Number(match[1]) * { s: 1, m: 60, h: 3_600 }[match[2] as 's' | 'm' | 'h'];
}

const defaultOf = (key: keyof typeof ALERT_KEYS): number => Number(ALERT_KEYS[key].default);

describe('deploy/prometheus/rules.yml', () => {
  it.skipIf(!hasPrometheus)('passes `promtool check rules`', { timeout: 60_000 }, async () => {
    const outcome = await promtool(['check', 'rules', RULES_FILE]);
    expect(`${outcome.stdout}${outcome.stderr}`).toMatch(new RegExp(`SUCCESS: ${allRules().length} rules found`));
    expect(outcome.code).toBe(0);
  });

  it.skipIf(!hasPrometheus)('passes its unit tests (`promtool test rules`), which fire every alert it defines', { timeout: 120_000 }, async () => {
    const outcome = await promtool(['test', 'rules', ...RULES_TEST_FILES]);
    expect(`${outcome.stdout}${outcome.stderr}`.match(/SUCCESS/g), `promtool at ${PROMTOOL ?? 'nowhere'}`).toHaveLength(RULES_TEST_FILES.length);
    expect(outcome.code).toBe(0);
    const tested = new Set(RULES_TEST_FILES.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/alertname: (\w+)/g)].map((match) => match[1])));
    for (const rule of allRules()) if (rule.alert !== undefined) expect(tested, `${rule.alert} has no unit test`).toContain(rule.alert);
  });

  it('alerts on every kind of event the notifier sends', () => {
    expect(Object.keys(ALERTS_OF_NOTIFIER_KIND).sort()).toEqual([...ALERT_EVENT_KINDS].sort());
    for (const names of Object.values(ALERTS_OF_NOTIFIER_KIND)) for (const name of names) expect(alertRule(name).expr).not.toBe('');
  });

  it('holds a pause and a stale or divergent reference as long as the notifier does by default, and counts storms in its window to its thresholds', () => {
    const pauseAfter = defaultOf('ALERT_PAUSE_AFTER_S');
    for (const name of ['AkiraMmPausedTooLong', 'AkiraMmReferenceUnusable', 'AkiraMmReferenceDivergent']) expect(seconds(alertRule(name).for), name).toBe(pauseAfter);
    const window = `[${defaultOf('ALERT_STORM_WINDOW_S') / 60}m]`;
    const reconnects = alertRule('AkiraMmReconnectStorm').expr;
    expect(reconnects).toContain(`increase(akira_mm_ws_reconnects_total${window}) >= ${defaultOf('ALERT_RECONNECT_STORM')}`);
    expect(reconnects).toContain(`increase(akira_mm_reference_reconnects_total${window}) >= ${defaultOf('ALERT_RECONNECT_STORM')}`);
    expect(alertRule('AkiraMm429Storm').expr).toBe(`increase(akira_mm_venue_rate_limited_total${window}) >= ${defaultOf('ALERT_429_STORM')}`);
  });

  it('gives every alert a severity the notifier uses, a summary and a description', () => {
    for (const rule of allRules().filter((candidate) => candidate.alert !== undefined)) {
      expect(['warning', 'critical'], rule.alert).toContain(rule.labels?.['severity']);
      expect(rule.annotations?.['summary'], rule.alert).toBeTruthy();
      expect(rule.annotations?.['description'], rule.alert).toBeTruthy();
    }
    for (const name of ['AkiraMmPairHalted', 'AkiraMmAccountHalted', 'AkiraMmHedgeHalted']) expect(alertRule(name).labels?.['severity']).toBe('critical');
  });
});

describe('deploy/grafana/akira-mm.json', () => {
  it('is an importable dashboard: unique panel ids, every query on the chosen Prometheus data source, one refId per query', () => {
    const board = dashboard();
    expect(board.uid).toBe('akira-mm');
    expect(board.templating.list.map((variable) => variable.name)).toEqual(['datasource', 'pair']);
    const ids = allPanels().map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboardPanels()) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      const refIds = (panel.targets ?? []).map((target) => target.refId);
      expect(new Set(refIds).size, panel.title).toBe(refIds.length);
      for (const target of panel.targets ?? []) {
        expect(target.datasource, `${panel.title} ${target.refId}`).toEqual({ type: 'prometheus', uid: '${datasource}' });
        expect(target.expr.trim(), `${panel.title} ${target.refId}`).not.toBe('');
      }
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
    }
  });

  it('uses only recording rules that rules.yml defines', () => {
    const recorded = new Set(allRules().flatMap((rule) => (rule.record === undefined ? [] : [rule.record])));
    for (const name of recordedNamesIn(readFileSync(DASHBOARD_FILE, 'utf8'))) expect(recorded, name).toContain(name);
    for (const name of recordedNamesIn(allRules().map((rule) => rule.expr).join('\n'))) expect(recorded, name).toContain(name);
  });
});

/** The /metrics of `akira-mm paper --hedge --reference` once it quotes and the hedge and the reference report. */
async function scrapePaperWithHedgeAndReference(): Promise<string> {
  const bot = await startPaper(['--hedge', '--reference']);
  try {
    const ready = (text: string): boolean => /akira_mm_hedge_state\{/.test(text) && /akira_mm_reference_state\{/.test(text) && /akira_mm_quoting\{[^}]*\} 1/.test(text);
    return await bot.metricsOnceReady(ready, 150_000);
  } finally {
    // Only its metrics matter here; a clean stop is metrics-conventions.test.ts's to prove.
    await bot.stop();
  }
}

const METRICS_DOC = fileURLToPath(new URL('../../docs/metrics.md', import.meta.url));

describe.skipIf(dataDir === undefined)('the metrics of `akira-mm paper --hedge --reference`', () => {
  const scraped = dataDir === undefined ? Promise.resolve('') : scrapePaperWithHedgeAndReference();

  it('hold every metric the rules and the dashboard name', { timeout: 200_000 }, async () => {
    const families = readExposition(await scraped);
    const exported = new Set([...families.values()].flatMap((family) => (family.type === 'histogram' ? ['_bucket', '_sum', '_count'].map((suffix) => family.name + suffix) : [family.name])));
    const named = new Set([...metricNamesIn(rulesText()), ...metricNamesIn(readFileSync(DASHBOARD_FILE, 'utf8'))]);
    expect(named.size).toBeGreaterThan(60);
    const missing = [...named].filter((name) => !exported.has(name)).sort();
    expect(missing).toEqual([]);
  });

  it('are every one listed in docs/metrics.md, the deprecated ones among the deprecated aliases', { timeout: 200_000 }, async () => {
    const doc = readFileSync(METRICS_DOC, 'utf8');
    const deprecatedSection = doc.slice(doc.indexOf('## Deprecated aliases'), doc.indexOf('## The shipped monitoring'));
    const families = [...readExposition(await scraped).values()];
    expect(families.length).toBeGreaterThan(100);
    expect(families.filter((family) => !doc.includes(`\`${family.name}\``)).map((family) => family.name)).toEqual([]);
    for (const family of families.filter((candidate) => candidate.help.startsWith('deprecated:'))) expect(deprecatedSection, family.name).toContain(`\`${family.name}\``);
  });
});
