/**
 * `npm run memory -- [--minutes M] [--every-s S] [--strategy NAME] [--signing-workers N] [--tsx] [--node-options "…"] [--env KEY=VALUE]… [--json]`:
 * a quoting daemon as a user runs it (`node bin/akira-mm.js run`, ETH/USDC, GLFT by default)
 * against the embedded exchange with synthetic flow, in real time, its resident set size and
 * threads read from /proc every S seconds for M minutes. One line per sample, then a summary: RSS
 * at the first sample after the warm-up (5 min, or the first fifth of a shorter run), the last,
 * the range after the warm-up and the least-squares slope in MB per hour (growth).
 *
 * `--breakdown` instead runs the daemon for M minutes (default 1) in each configuration that
 * decides its memory — tsx's loader thread or the compiled sources, 0/1/2 signing threads — and
 * prints the steady RSS of each (where the RSS goes: RELIABILITY.md "Lean daemon").
 * Linux only (/proc). The wall clock is read through the injected `LiveClock`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LiveClock } from '../core/index.ts';
import { feltToHex } from '../exchange/wire/fields.ts';
import { startSim } from '../sim/index.ts';
import { BotProcess, freePort, metricSum, writeEnvFile } from './bot-process.ts';

/** One reading of the daemon process. */
export interface MemorySample {
  readonly minute: number;
  readonly rssMb: number;
  /** Anonymous memory (heaps, wasm, buffers) and file-backed (the node binary, libraries), MB. */
  readonly anonMb: number;
  readonly fileMb: number;
  readonly threads: number;
  /** The V8 heap in use and memory outside it (wasm tables, buffers), from the daemon's /metrics, MB. */
  readonly heapUsedMb: number | undefined;
  readonly heapTotalMb: number | undefined;
  readonly externalMb: number | undefined;
  /** Our orders the exchange has seen so far, and how many filled. */
  readonly orders: number;
  readonly filled: number;
}

/** What a memory run found. */
export interface MemoryReport {
  readonly minutes: number;
  readonly strategy: string;
  readonly signingWorkers: number;
  readonly runtime: 'compiled' | 'tsx';
  readonly samples: readonly MemorySample[];
  /** RSS at the first sample after the warm-up, and at the end, MB. */
  readonly steadyStartMb: number;
  readonly endMb: number;
  readonly steadyMinMb: number;
  readonly steadyMaxMb: number;
  /** Least-squares slope of RSS after the warm-up, MB per hour. */
  readonly growthMbPerHour: number;
  readonly threads: number;
  readonly exitCode: number | null;
}

function readStatus(pid: number): { rssMb: number; threads: number; anonMb: number; fileMb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { rssMb: field('VmRSS') / 1024, threads: field('Threads'), anonMb: field('RssAnon') / 1024, fileMb: field('RssFile') / 1024 };
  } catch {
    return undefined;
  }
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function slopePerHour(points: readonly MemorySample[]): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const meanX = points.reduce((sum, point) => sum + point.minute, 0) / n;
  const meanY = points.reduce((sum, point) => sum + point.rssMb, 0) / n;
  const covariance = points.reduce((sum, point) => sum + (point.minute - meanX) * (point.rssMb - meanY), 0);
  const variance = points.reduce((sum, point) => sum + (point.minute - meanX) ** 2, 0);
  return variance === 0 ? 0 : (covariance / variance) * 60;
}

/** Runs one daemon against the embedded exchange and samples it. */
export async function measureDaemon(options: {
  readonly minutes: number;
  readonly everyS: number;
  readonly strategy: string;
  readonly signingWorkers: number;
  readonly tsx: boolean;
  /** NODE_OPTIONS for the daemon (V8 heap flags to compare); default none. */
  readonly nodeOptions?: string;
  /** More environment for the daemon (MALLOC_ARENA_MAX, say). */
  readonly env?: Readonly<Record<string, string>>;
  readonly onSample?: (sample: MemorySample) => void;
}): Promise<MemoryReport> {
  const clock = new LiveClock();
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => clock.setTimeout(resolve, ms));
  const sim = await startSim({ seed: 5, flow: true, signatureWorkers: 0, devAccounts: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'akira-memory-'));
  const account = sim.accounts[0];
  if (account?.privateKey === undefined) throw new Error('the embedded exchange has no dev account');
  const envFile = join(dir, 'pair.env');
  const metricsPort = await freePort();
  writeEnvFile(envFile, {
    EXCHANGE_HTTP_URL: sim.httpUrl,
    EXCHANGE_WS_URL: sim.wsUrl,
    TRADING_ACCOUNT: feltToHex(account.address),
    SIGNER_PRIVATE_KEY: feltToHex(account.privateKey),
    BASE: 'ETH',
    QUOTE: 'USDC',
    STRATEGY: options.strategy,
    METRICS_PORT: String(metricsPort),
    LOG_LEVEL: 'warn',
    SIGNING_WORKERS: String(options.signingWorkers),
  });
  const bot = new BotProcess(envFile, join(dir, 'state', 'bot.journal'), metricsPort, undefined, { ...(options.tsx ? { AKIRA_MM_TSX: '1' } : {}), ...(options.nodeOptions === undefined ? {} : { NODE_OPTIONS: options.nodeOptions }), ...options.env });
  const samples: MemorySample[] = [];
  const startedMs = clock.nowMs();
  try {
    for (let index = 1; index * options.everyS <= options.minutes * 60; index++) {
      await sleep(startedMs + index * options.everyS * 1000 - clock.nowMs());
      const status = bot.pid === undefined || !bot.isAlive ? undefined : readStatus(bot.pid);
      if (status === undefined) break;
      const orders = sim.ordersOf(account.address);
      const metrics = await bot.scrape();
      const mb = (name: string): number | undefined =>
        metrics !== undefined && [...metrics.keys()].some((key) => key.startsWith(name)) ? round1(metricSum(metrics, name) / 1_048_576) : undefined;
      const sample: MemorySample = {
        minute: round1((index * options.everyS) / 60),
        rssMb: round1(status.rssMb),
        anonMb: round1(status.anonMb),
        fileMb: round1(status.fileMb),
        threads: status.threads,
        heapUsedMb: mb('akira_mm_process_heap_used_bytes'),
        heapTotalMb: mb('akira_mm_process_heap_total_bytes'),
        externalMb: mb('akira_mm_process_external_memory_bytes'),
        orders: orders.length,
        filled: orders.filter((order) => order.filledBase > 0n).length,
      };
      samples.push(sample);
      options.onSample?.(sample);
    }
  } finally {
    bot.signal('SIGTERM');
    await bot.exited;
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const warmupMin = Math.min(5, options.minutes / 5);
  const steady = samples.filter((sample) => sample.minute >= warmupMin);
  const exit = await bot.exited;
  return {
    minutes: options.minutes,
    strategy: options.strategy,
    signingWorkers: options.signingWorkers,
    runtime: options.tsx ? 'tsx' : 'compiled',
    samples,
    steadyStartMb: steady[0]?.rssMb ?? NaN,
    endMb: samples.at(-1)?.rssMb ?? NaN,
    steadyMinMb: Math.min(...steady.map((sample) => sample.rssMb)),
    steadyMaxMb: Math.max(...steady.map((sample) => sample.rssMb)),
    growthMbPerHour: round1(slopePerHour(steady)),
    threads: samples.at(-1)?.threads ?? 0,
    exitCode: exit.code,
  };
}

function describeReport(report: MemoryReport): string {
  return `${report.runtime}, ${report.signingWorkers} signing thread(s), ${report.strategy}: steady ${report.steadyMinMb}–${report.steadyMaxMb} MB (start ${report.steadyStartMb}, end ${report.endMb}), growth ${report.growthMbPerHour} MB/h, ${report.threads} threads, exit ${report.exitCode}`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string' },
      'every-s': { type: 'string' },
      strategy: { type: 'string' },
      'signing-workers': { type: 'string' },
      tsx: { type: 'boolean' },
      'node-options': { type: 'string' },
      env: { type: 'string', multiple: true },
      breakdown: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const number = (name: string, text: string | undefined, fallback: number): number => {
    const value = text === undefined ? fallback : Number(text);
    if (!(value > 0) && !(name === 'signing-workers' && value === 0)) throw new Error(`--${name} must be a positive number, got "${text}"`);
    return value;
  };
  const strategy = values.strategy ?? 'glft';
  if (values.breakdown === true) {
    const minutes = number('minutes', values.minutes, 1);
    const reports: MemoryReport[] = [];
    for (const [tsx, signingWorkers] of [[true, 2], [true, 0], [false, 2], [false, 1], [false, 0]] as const) {
      const report = await measureDaemon({ minutes, everyS: number('every-s', values['every-s'], 10), strategy, signingWorkers, tsx });
      reports.push(report);
      process.stdout.write(`${describeReport(report)}\n`);
    }
    if (values.json === true) process.stdout.write(`${JSON.stringify(reports.map(({ samples: _samples, ...rest }) => rest))}\n`);
    return 0;
  }
  const report = await measureDaemon({
    minutes: number('minutes', values.minutes, 60),
    everyS: number('every-s', values['every-s'], 60),
    strategy,
    signingWorkers: number('signing-workers', values['signing-workers'], 0),
    tsx: values.tsx === true,
    ...(values['node-options'] === undefined ? {} : { nodeOptions: values['node-options'] }),
    env: Object.fromEntries((values.env ?? []).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])),
    onSample: (sample) =>
      process.stdout.write(
        `min ${sample.minute}\tRSS ${sample.rssMb} MB (anon ${sample.anonMb}, file ${sample.fileMb}; heap ${sample.heapUsedMb ?? '?'} of ${sample.heapTotalMb ?? '?'}, external ${sample.externalMb ?? '?'})\t${sample.threads} threads\t${sample.orders} orders, ${sample.filled} filled\n`,
      ),
  });
  process.stdout.write(`${describeReport(report)}\n`);
  if (values.json === true) process.stdout.write(`${JSON.stringify(report)}\n`);
  return 0;
}

const isEntryPoint = process.argv[1] !== undefined && /daemon-memory\.ts$/.test(process.argv[1]);
if (isEntryPoint) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`memory: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    },
  );
}
