/**
 * The bot under test as a real child process (`node bin/akira-mm.js run --env FILE`, as a user
 * starts it: the compiled copy of the sources, no tsx loader), so a
 * SIGKILL is a real SIGKILL: no `finally`, no flush, no goodbye. Its stdout/stderr lines are kept
 * (the secrets scan reads every one), and its Prometheus endpoint is scraped for the figures the
 * invariants compare with the exchange.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (tools/chaos/../..). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A free loopback TCP port (bound then released: a tiny race, acceptable on loopback). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Writes a pair env file; values are written as given. */
export function writeEnvFile(path: string, env: Readonly<Record<string, string>>): void {
  writeFileSync(path, Object.entries(env).map(([key, value]) => `${key}=${value}`).join('\n') + '\n', { mode: 0o600 });
}

/** The outcome of one bot process. */
export interface BotExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Figures scraped from `/metrics`. */
export type MetricSample = ReadonlyMap<string, number>;

/** One running bot process. */
export class BotProcess {
  readonly lines: string[] = [];
  readonly exited: Promise<BotExit>;
  private readonly child: ChildProcess;
  private hasExited = false;

  /**
   * @param envFile one pair file, or several of one account (`run --env A --env B`)
   * @param hooks the chaos hooks' control file and the directory whose disk can fill (`bot-hooks.mjs`); none = a plain bot.
   */
  constructor(
    readonly envFile: string | readonly string[],
    readonly journalPath: string,
    readonly metricsPort: number,
    hooks?: { readonly controlFile: string; readonly diskDir: string },
    extraEnv: Readonly<Record<string, string>> = {},
  ) {
    const preload = hooks === undefined ? [] : ['--import', './tools/chaos/bot-hooks.mjs'];
    const envArgs = (typeof envFile === 'string' ? [envFile] : envFile).flatMap((file) => ['--env', file]);
    this.child = spawn(process.execPath, [...preload, 'bin/akira-mm.js', 'run', ...envArgs, '--journal', journalPath, '--state-dir', dirname(journalPath)], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        ...(hooks === undefined ? {} : { AKIRA_CHAOS_CONTROL: hooks.controlFile, AKIRA_CHAOS_DISK_DIR: hooks.diskDir }),
        ...extraEnv,
      },
    });
    const collect = (stream: NodeJS.ReadableStream | null): void => {
      let rest = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop() ?? '';
        for (const line of parts) if (line !== '') this.lines.push(line);
      });
      stream?.on('end', () => {
        if (rest !== '') this.lines.push(rest);
      });
    };
    collect(this.child.stdout);
    collect(this.child.stderr);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.hasExited = true;
        resolve({ code, signal });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get isAlive(): boolean {
    return !this.hasExited;
  }

  /**
   * Sends a signal: SIGTERM a graceful stop, SIGKILL a crash, SIGSTOP/SIGCONT a frozen process
   * (a slow consumer), SIGUSR2 the chaos hooks' cue to read their control file (`bot-hooks.mjs`).
   */
  signal(name: 'SIGTERM' | 'SIGKILL' | 'SIGSTOP' | 'SIGCONT' | 'SIGUSR2'): void {
    if (!this.hasExited) this.child.kill(name);
  }

  /** Scrapes `/metrics` (undefined while the server is not up or the process is gone). */
  async scrape(): Promise<MetricSample | undefined> {
    if (this.hasExited) return undefined;
    try {
      const response = await fetch(`http://127.0.0.1:${this.metricsPort}/metrics`, { signal: AbortSignal.timeout(2_000) });
      if (!response.ok) return undefined;
      return parseMetrics(await response.text());
    } catch {
      return undefined;
    }
  }

  /** Tells the chaos hooks in the process what to do now (clock offset, disk full). */
  control(controlFile: string, control: { readonly clockOffsetMs?: number; readonly diskFull?: boolean }): void {
    writeFileSync(controlFile, JSON.stringify(control));
    this.signal('SIGUSR2');
  }

  /** Log lines (pino JSON) whose `msg` is `message`. */
  logsWithMessage(message: string): Record<string, unknown>[] {
    const found: Record<string, unknown>[] = [];
    for (const line of this.lines) {
      if (!line.includes(message)) continue;
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        if (parsed['msg'] === message) found.push(parsed);
      } catch {
        // not a JSON log line
      }
    }
    return found;
  }
}

/** Parses the Prometheus text format into `name{labels}` → value (labels as written). */
export function parseMetrics(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    if (space <= 0) continue;
    const value = Number(line.slice(space + 1));
    if (Number.isFinite(value)) values.set(line.slice(0, space), value);
  }
  return values;
}

/** Sum of every series of a metric (all label sets), or of those whose labels contain `labelPart` (every one of several). */
export function metricSum(sample: MetricSample | undefined, name: string, labelPart: string | readonly string[] = ''): number {
  if (sample === undefined) return 0;
  const parts = typeof labelPart === 'string' ? [labelPart] : labelPart;
  let total = 0;
  for (const [key, value] of sample) {
    if ((key === name || key.startsWith(`${name}{`)) && parts.every((part) => key.includes(part))) total += value;
  }
  return total;
}
