/**
 * The Kubernetes manifests in deploy/k8s: every object validates against the Kubernetes API
 * schemas (kubernetes-models, and @kubernetes-models/prometheus-operator for the ServiceMonitor and
 * the PrometheusRule), and the settings the bot's safety depends on hold: one pod per account that
 * stops before its replacement starts and that no drain evicts, non-root, a grace period longer
 * than the shutdown timeout, probes on /livez and /readyz, a Service and a ServiceMonitor that
 * scrape it, the alert rules of deploy/prometheus/rules.yml as a PrometheusRule, the
 * app.kubernetes.io labels, and Job shards that match `--shard`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Service } from 'kubernetes-models/v1/Service';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { parse as parseDotenv } from 'dotenv';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { parseFlags, type FlagSpecs } from '../../src/cli/args.ts';
import { BACKTEST_OPTIONS } from '../../src/cli/backtest.ts';
import { MERGE_OPTIONS } from '../../src/cli/backtest-sweep.ts';
import { RUN_OPTIONS } from '../../src/cli/run.ts';
import { ENGINE_KEYS } from '../../src/config/index.ts';
import { PROMETHEUS_RULE_PATH, prometheusRule } from '../../tools/deploy/prometheus-rule.ts';
import { rulesText } from './monitoring-files.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const k8sDir = join(repoRoot, 'deploy/k8s');

type Manifest = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown; [key: string]: unknown };

const MODELS: Readonly<Record<string, new (data: never) => { validate(): void }>> = {
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/Service': Service,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'v1/ConfigMap': ConfigMap,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/ServiceAccount': ServiceAccount,
};

function loadManifests(): { file: string; manifest: Manifest }[] {
  return readdirSync(k8sDir)
    .filter((name) => name.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(k8sDir, file), 'utf8')).map((doc) => {
        expect(doc.errors, file).toEqual([]);
        return { file, manifest: doc.toJS() as Manifest };
      }),
    );
}

const manifests = loadManifests();
const byKind = (kind: string): Manifest[] => manifests.filter(({ manifest }) => manifest.kind === kind).map(({ manifest }) => manifest);
const podSpec = (manifest: Manifest): IPodSpec => (manifest.spec as { template: { spec: IPodSpec } }).template.spec;
const onlyContainer = (manifest: Manifest): IContainer => {
  const containers = podSpec(manifest).containers;
  expect(containers).toHaveLength(1);
  return containers[0] as IContainer;
};

/** Splits a shell command line into words (double quotes group; what the manifests use). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? (match[2] as string));
}

/** A container's akira-mm arguments, with the Job's completion index `index` filled in. */
function akiraArgs(container: IContainer, index: number): string[] {
  if (container.command?.[0] !== 'sh') return [...(container.args ?? [])];
  const line = (container.args?.[0] ?? '').replace(/\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)/g, String(index + 1)).replace(/\$JOB_COMPLETION_INDEX/g, String(index));
  const words = shellWords(line);
  expect(words.slice(0, 3)).toEqual(['exec', 'node', 'bin/akira-mm.js']);
  return words.slice(3);
}

function parsesWith(options: FlagSpecs, args: readonly string[]): ReturnType<typeof parseFlags<FlagSpecs>> {
  return parseFlags(args, options, 'manifest');
}

describe('deploy/k8s manifests', () => {
  it('hold only objects that validate against the Kubernetes schemas', () => {
    expect(manifests.length).toBeGreaterThanOrEqual(6);
    for (const { file, manifest } of manifests) {
      const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
      expect(Model, `${file}: ${manifest.apiVersion} ${manifest.kind} has no schema here`).toBeDefined();
      expect(() => new (Model as NonNullable<typeof Model>)(manifest as never).validate(), `${file}: ${manifest.kind} ${manifest.metadata.name}`).not.toThrow();
    }
  });

  it('refer only to volumes, claims and config maps they define', () => {
    const claims = new Set(byKind('PersistentVolumeClaim').map((m) => m.metadata.name));
    const configMaps = new Set(byKind('ConfigMap').map((m) => m.metadata.name));
    for (const manifest of [...byKind('Deployment'), ...byKind('Job')]) {
      const spec = podSpec(manifest);
      const volumes = new Map((spec.volumes ?? []).map((volume) => [volume.name, volume]));
      for (const mount of onlyContainer(manifest).volumeMounts ?? []) expect(volumes.has(mount.name), `${manifest.metadata.name}: ${mount.name}`).toBe(true);
      for (const volume of volumes.values()) {
        if (volume.persistentVolumeClaim !== undefined) expect(claims.has(volume.persistentVolumeClaim.claimName)).toBe(true);
        if (volume.configMap !== undefined) expect(configMaps.has(volume.configMap.name ?? '')).toBe(true);
      }
    }
  });

  it('run every pod as non-root with a read-only root filesystem and no privilege escalation', () => {
    for (const manifest of [...byKind('Deployment'), ...byKind('Job')]) {
      const spec = podSpec(manifest);
      expect(spec.securityContext?.runAsNonRoot, manifest.metadata.name).toBe(true);
      expect(spec.securityContext?.runAsUser).toBeGreaterThan(0);
      expect(spec.automountServiceAccountToken).toBe(false);
      const container = onlyContainer(manifest);
      expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
      expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
      expect(container.securityContext?.capabilities?.drop).toEqual(['ALL']);
    }
  });

  describe('the Deployment of an account (every pair in one pod)', () => {
    const [deployment] = byKind('Deployment');
    const spec = deployment === undefined ? undefined : podSpec(deployment);
    const container = deployment === undefined ? undefined : onlyContainer(deployment);

    it('runs one pod that stops (cancel-all) before its replacement starts', () => {
      expect(byKind('Deployment')).toHaveLength(1);
      const deploymentSpec = deployment?.spec as { replicas: number; strategy: { type: string } };
      expect(deploymentSpec.replicas).toBe(1);
      expect(deploymentSpec.strategy.type).toBe('Recreate');
    });

    it('reads every pair file of the account from one Secret, and runs one `akira-mm run` on all of them', () => {
      const values = parsesWith(RUN_OPTIONS, akiraArgs(container as IContainer, 0).slice(1)).values as Record<string, string | string[]>;
      expect(akiraArgs(container as IContainer, 0)[0]).toBe('run');
      expect(values['metrics-host']).toBe('0.0.0.0');
      const files = values['env'] as string[];
      expect(files.length).toBeGreaterThanOrEqual(2);
      for (const file of files) {
        const mount = container?.volumeMounts?.find((m) => file.startsWith(`${m.mountPath}/`));
        const volume = spec?.volumes?.find((v) => v.name === mount?.name);
        expect(volume?.secret?.secretName).toMatch(/^akira-mm-/);
        expect(volume?.secret?.items?.map((item) => `${mount?.mountPath}/${item.path}`)).toContain(file);
        expect(mount?.readOnly).toBe(true);
      }
    });

    it('waits longer than SHUTDOWN_TIMEOUT_MS before killing the pod, for the default and every shipped pair file', () => {
      const timeouts = [Number(ENGINE_KEYS.SHUTDOWN_TIMEOUT_MS.default)];
      for (const name of readdirSync(join(repoRoot, 'config')).filter((file) => file.endsWith('.env'))) {
        const value = parseDotenv(readFileSync(join(repoRoot, 'config', name), 'utf8'))['SHUTDOWN_TIMEOUT_MS'];
        if (value !== undefined && value !== '') timeouts.push(Number(value));
      }
      const graceMs = (spec?.terminationGracePeriodSeconds ?? 30) * 1_000;
      for (const timeout of timeouts) expect(graceMs).toBeGreaterThan(timeout + 5_000);
    });

    it('restarts only a process that stops answering (/livez), and shows a paused or halted one as not ready (/readyz)', () => {
      const port = container?.ports?.find((p) => p.name === 'metrics');
      expect(port?.containerPort).toBe(9464);
      expect(container?.livenessProbe?.httpGet).toEqual({ path: '/livez', port: 'metrics' });
      expect(container?.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'metrics' });
      // A liveness probe that failed while a pair is halted would restart the pod and undo the halt.
      expect(container?.livenessProbe?.exec).toBeUndefined();
      const annotations = (deployment?.spec as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations;
      expect(annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port?.containerPort), 'prometheus.io/path': '/metrics' });
    });

    it('is reached through a Service whose metrics port the ServiceMonitor scrapes', () => {
      const templateLabels = (deployment?.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;
      const services = byKind('Service');
      expect(services).toHaveLength(1);
      const service = (services[0] as Manifest).spec as { selector: Record<string, string>; ports: { name: string; port: number; targetPort: string }[] };
      expect(templateLabels).toMatchObject(service.selector);
      expect(service.ports).toEqual([expect.objectContaining({ name: 'metrics', port: 9464, targetPort: 'metrics' })]);
      const monitors = byKind('ServiceMonitor');
      expect(monitors).toHaveLength(1);
      const monitor = (monitors[0] as Manifest).spec as { selector: { matchLabels: Record<string, string> }; endpoints: { port: string; path: string }[] };
      expect((services[0] as Manifest).metadata.labels).toMatchObject(monitor.selector.matchLabels);
      expect(monitor.endpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics' })]);
      // The alert AkiraMmDown matches the job the operator names after the Service.
      expect((services[0] as Manifest).metadata.name).toMatch(/^akira-mm/);
    });

    it('lets no drain evict its pod, ready or not, and so never undoes a halt by moving it', () => {
      const budgets = byKind('PodDisruptionBudget');
      expect(budgets).toHaveLength(1);
      const budget = (budgets[0] as Manifest).spec as { maxUnavailable: number; unhealthyPodEvictionPolicy: string; selector: { matchLabels: Record<string, string> } };
      expect(budget.maxUnavailable).toBe(0);
      expect(budget.unhealthyPodEvictionPolicy).toBe('IfHealthyBudget');
      expect(budget.selector).toEqual((deployment?.spec as { selector: unknown }).selector);
    });
  });

  it('label every object app.kubernetes.io/name, component and part-of, and every pod also instance and the version of its image', () => {
    for (const { file, manifest } of manifests) {
      expect(manifest.metadata.labels, `${file}: ${manifest.kind} ${manifest.metadata.name}`).toMatchObject({ 'app.kubernetes.io/name': 'akira-mm', 'app.kubernetes.io/part-of': 'akira-mm', 'app.kubernetes.io/component': expect.any(String) });
    }
    for (const manifest of [...byKind('Deployment'), ...byKind('Job')]) {
      const template = (manifest.spec as { template: { metadata: { labels: Record<string, string> } } }).template;
      const image = onlyContainer(manifest).image ?? '';
      expect(template.metadata.labels, manifest.metadata.name).toMatchObject({
        'app.kubernetes.io/instance': manifest.metadata.name,
        'app.kubernetes.io/version': image.slice(image.lastIndexOf(':') + 1),
        'app.kubernetes.io/component': manifest.metadata.labels?.['app.kubernetes.io/component'],
      });
    }
  });

  it('ship the alert rules of deploy/prometheus/rules.yml as a PrometheusRule written from that file', () => {
    const rules = byKind('PrometheusRule');
    expect(rules).toHaveLength(1);
    expect((rules[0] as Manifest).spec).toEqual({ groups: (parse(rulesText()) as { groups: unknown }).groups });
    expect(readFileSync(PROMETHEUS_RULE_PATH, 'utf8'), 'deploy/k8s/prometheus-rule.yaml is stale: run `npx tsx tools/deploy/prometheus-rule.ts`').toBe(prometheusRule(rulesText()));
  });

  describe('the sweep Jobs', () => {
    const sweep = byKind('Job').find((job) => (job.spec as { completionMode?: string }).completionMode === 'Indexed');
    const merge = byKind('Job').find((job) => job !== sweep);

    it('run one shard per completion index, as many shards as completions, each writing its own results', () => {
      const jobSpec = sweep?.spec as { completions: number; parallelism: number; template: { spec: IPodSpec } };
      expect(jobSpec.template.spec.restartPolicy).toBe('Never');
      const files = new Set<string>();
      for (let index = 0; index < jobSpec.completions; index++) {
        const args = akiraArgs(onlyContainer(sweep as Manifest), index);
        expect(args[0]).toBe('backtest');
        const { values } = parsesWith(BACKTEST_OPTIONS, args.slice(1));
        const typed = values as Record<string, string | string[]>;
        expect(typed['shard']).toBe(`${index + 1}/${jobSpec.completions}`);
        expect((typed['sweep'] as string[]).length).toBeGreaterThan(0);
        files.add(typed['jsonl'] as string);
        expect(String(typed['data'])).toMatch(/^\/data\//);
      }
      expect(files.size).toBe(jobSpec.completions);
    });

    it('reads the recordings from a read-only volume', () => {
      const spec = podSpec(sweep as Manifest);
      const data = spec.volumes?.find((volume) => volume.name === 'data');
      expect(data?.persistentVolumeClaim?.readOnly).toBe(true);
      expect(onlyContainer(sweep as Manifest).volumeMounts?.find((mount) => mount.name === 'data')?.readOnly).toBe(true);
    });

    it('merge every shard the sweep writes', () => {
      const args = akiraArgs(onlyContainer(merge as Manifest), 0);
      expect(args.slice(0, 2)).toEqual(['backtest', 'merge']);
      const { positionals } = parsesWith(MERGE_OPTIONS, args.slice(2));
      expect(positionals).toEqual(['/results/shard-*.jsonl']);
      const written = String((parsesWith(BACKTEST_OPTIONS, akiraArgs(onlyContainer(sweep as Manifest), 0).slice(1)).values as Record<string, string>)['jsonl']);
      expect(written).toMatch(/^\/results\/shard-\d+\.jsonl$/);
    });
  });
});
