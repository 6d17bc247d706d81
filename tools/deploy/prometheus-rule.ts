/**
 * deploy/k8s/prometheus-rule.yaml from deploy/prometheus/rules.yml: the same groups wrapped in a
 * prometheus-operator PrometheusRule, so one file is edited and the other is written from it
 * (test/deploy/k8s.test.ts fails while they differ).
 *
 *   npx tsx tools/deploy/prometheus-rule.ts            # writes deploy/k8s/prometheus-rule.yaml
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

export const RULES_PATH = fileURLToPath(new URL('../../deploy/prometheus/rules.yml', import.meta.url));
export const PROMETHEUS_RULE_PATH = fileURLToPath(new URL('../../deploy/k8s/prometheus-rule.yaml', import.meta.url));

const HEADER = `# GENERATED from deploy/prometheus/rules.yml by \`npx tsx tools/deploy/prometheus-rule.ts\`: edit
# that file, then run this command (npm test fails while the two differ).
#
# The alert and recording rules of akira-mm for a Prometheus run by prometheus-operator
# (kube-prometheus-stack): README "Monitoring", docs/alerts.md. The operator loads a
# PrometheusRule whose labels match its Prometheus's ruleSelector (kube-prometheus-stack's default
# wants \`release: <the Helm release's name>\`: add that label, or set
# ruleSelectorNilUsesHelmValues=false) in a namespace its ruleNamespaceSelector covers.
`;

/** The PrometheusRule document (YAML text) wrapping the rule groups of `rulesText`. */
export function prometheusRule(rulesText: string): string {
  const { groups } = parse(rulesText) as { groups: unknown[] };
  const document = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'akira-mm',
      labels: { 'app.kubernetes.io/name': 'akira-mm', 'app.kubernetes.io/part-of': 'akira-mm', 'app.kubernetes.io/component': 'monitoring' },
    },
    spec: { groups },
  };
  return HEADER + stringify(document, { lineWidth: 0 });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(PROMETHEUS_RULE_PATH, prometheusRule(readFileSync(RULES_PATH, 'utf8')));
  process.stdout.write(`wrote ${PROMETHEUS_RULE_PATH}\n`);
}
