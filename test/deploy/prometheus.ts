/**
 * Debian's Prometheus in tests (package `prometheus`: `/usr/bin/prometheus` and `/usr/bin/promtool`):
 * promtool's strict exposition parser and linter, its rule checks and rule unit tests, and a real
 * server on loopback with a temporary data directory, killed when the test is done. CI installs the
 * package (.ci/run); elsewhere these tests run when it is there and are skipped with a message
 * when it is not.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../tools/chaos/bot-process.ts';

export const PROMETHEUS = ['/usr/bin/prometheus', '/usr/local/bin/prometheus'].find((path) => existsSync(path));
export const PROMTOOL = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((path) => existsSync(path));

/** True when Prometheus is here or in CI (where its absence must fail); tests are skipped otherwise. */
export const hasPrometheus = (PROMETHEUS !== undefined && PROMTOOL !== undefined) || process.env['CI'] === 'true';
if (!hasPrometheus) process.stderr.write('Prometheus is not installed (Debian package `prometheus`; .ci/run installs it): the Prometheus tests are skipped\n');

/** What a finished promtool said. */
export interface ToolOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function tool(): string {
  if (PROMTOOL === undefined) throw new Error('promtool is not installed (Debian package `prometheus`); .ci/run installs it');
  return PROMTOOL;
}

/** Runs `promtool args…`, `input` on its stdin. */
export function promtool(args: readonly string[], input = ''): Promise<ToolOutcome> {
  return new Promise((resolve, reject) => {
    const child = execFile(tool(), [...args], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') reject(error);
      else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
    });
    child.stdin?.end(input);
  });
}

/** `promtool check metrics`: the problems it finds in an exposition (`name problem`, one a line; a parse error among them). */
export async function lintExposition(text: string): Promise<string[]> {
  const outcome = await promtool(['check', 'metrics'], text);
  return `${outcome.stdout}\n${outcome.stderr}`.split('\n').map((line) => line.trim()).filter((line) => line !== '');
}

/** A Prometheus server the test started. */
export interface PrometheusServer {
  readonly url: string;
  /** Everything it logged (for failure messages). */
  log(): string;
  /** Runs an instant query; the API's JSON answer (`status`, `data`, `error`). */
  query(expression: string): Promise<PromResponse>;
  /** GETs an API path (`/api/v1/rules`, …). */
  get(path: string): Promise<PromResponse>;
  /** Kills the server and removes its data directory. */
  stop(): Promise<void>;
}

/** The envelope of every Prometheus HTTP API answer. */
export interface PromResponse {
  readonly status: 'success' | 'error';
  readonly data?: unknown;
  readonly errorType?: string;
  readonly error?: string;
}

/** One series of an instant vector. */
export interface VectorSample {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

/**
 * Starts `prometheus` on a free loopback port (it cannot take port 0) with `config` (YAML text)
 * and these rule files, its TSDB in a temporary directory; resolves once it answers /-/ready.
 */
export async function startPrometheus(config: string, ruleFiles: readonly string[] = []): Promise<PrometheusServer> {
  if (PROMETHEUS === undefined) throw new Error('prometheus is not installed (Debian package `prometheus`); .ci/run installs it');
  const dir = mkdtempSync(join(tmpdir(), 'akira-prometheus-'));
  const configPath = join(dir, 'prometheus.yml');
  const rules = ruleFiles.length === 0 ? '' : `rule_files:\n${ruleFiles.map((file) => `  - ${JSON.stringify(file)}`).join('\n')}\n`;
  writeFileSync(configPath, `${config}\n${rules}`);
  const port = await freePort();
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [`--config.file=${configPath}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const get = async (path: string): Promise<PromResponse> => (await fetch(`${url}${path}`)).json() as Promise<PromResponse>;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = performance.now() + 30_000;
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then((response) => response.ok, () => false);
    if (ready) break;
    if (child.exitCode !== null || performance.now() > deadline) {
      await stop();
      throw new Error(`prometheus did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    log: () => output,
    get,
    query: (expression) => get(`/api/v1/query?query=${encodeURIComponent(expression)}`),
    stop,
  };
}
