/**
 * The shipped monitoring as the tests read it: the alert and recording rules of
 * deploy/prometheus/rules.yml and the panels and queries of deploy/grafana/akira-mm.json, and the
 * metric names both use.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const RULES_FILE = fileURLToPath(new URL('../../deploy/prometheus/rules.yml', import.meta.url));
/** promtool's unit tests of rules.yml. */
export const RULES_TEST_FILES = ['rules.test.yml', 'daily-loss.test.yml'].map((name) => fileURLToPath(new URL(`../../deploy/prometheus/tests/${name}`, import.meta.url)));
export const DASHBOARD_FILE = fileURLToPath(new URL('../../deploy/grafana/akira-mm.json', import.meta.url));

/** One rule of rules.yml: an alert or a recording rule. */
export interface Rule {
  readonly alert?: string;
  readonly record?: string;
  readonly expr: string;
  readonly for?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** One group of rules.yml. */
export interface RuleGroup {
  readonly name: string;
  readonly rules: readonly Rule[];
}

export interface Target {
  readonly expr: string;
  readonly refId: string;
  readonly legendFormat?: string;
  readonly datasource?: { readonly type: string; readonly uid: string };
}

export interface Panel {
  readonly id: number;
  readonly title: string;
  readonly type: string;
  readonly gridPos: { readonly h: number; readonly w: number; readonly x: number; readonly y: number };
  readonly datasource?: { readonly type: string; readonly uid: string };
  readonly targets?: readonly Target[];
  readonly panels?: readonly Panel[];
}

export interface Dashboard {
  readonly uid: string;
  readonly title: string;
  readonly panels: readonly Panel[];
  readonly templating: { readonly list: readonly { readonly name: string; readonly type: string; readonly query?: unknown; readonly definition?: string }[] };
}

/** The text of rules.yml (what the PrometheusRule wraps). */
export const rulesText = (): string => readFileSync(RULES_FILE, 'utf8');

/** The groups of rules.yml. */
export const ruleGroups = (): RuleGroup[] => (parse(rulesText()) as { groups: RuleGroup[] }).groups;

/** Every rule of rules.yml, alerts and recording rules. */
export const allRules = (): Rule[] => ruleGroups().flatMap((group) => [...group.rules]);

/** The alert named `name`. @throws when rules.yml has none. */
export function alertRule(name: string): Rule {
  const rule = allRules().find((candidate) => candidate.alert === name);
  if (rule === undefined) throw new Error(`rules.yml has no alert ${name}`);
  return rule;
}

export const dashboard = (): Dashboard => JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as Dashboard;

/** Every panel of the dashboard, rows included (a collapsed row holds its panels). */
export const allPanels = (): Panel[] => dashboard().panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);

/** Every panel that shows data (not a row). */
export const dashboardPanels = (): Panel[] => allPanels().filter((panel) => panel.type !== 'row');

/** What Grafana puts in place of the dashboard's variables, for a Prometheus that scrapes every second. */
export function withVariables(expression: string): string {
  return expression.replaceAll('$__rate_interval', '20s').replaceAll('$pair', '.*');
}

/** A series name as the text names it: the daemon's own, prom-client's process ones, or Prometheus's `up`. */
const METRIC_NAME = /\b(?:akira_mm_[a-z0-9_]+|process_[a-z0-9_]+|nodejs_[a-z0-9_]+)\b/g;
/** A recording rule's name (`level:metric:operation`, ours start `akira_mm:`). */
const RECORDED_NAME = /\bakira_mm:[a-z0-9_:]+/g;

/** The daemon's metric names a text mentions (queries, help text, annotations alike). */
export function metricNamesIn(text: string): Set<string> {
  return new Set(text.replace(RECORDED_NAME, '').match(METRIC_NAME) ?? []);
}

/** The recording rules' names a text uses. */
export function recordedNamesIn(text: string): Set<string> {
  return new Set(text.match(RECORDED_NAME) ?? []);
}
