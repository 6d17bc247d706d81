/**
 * `npm run memory -- [--minutes M] [--every-s S] [--strategy NAME] [--signing-workers N] [--tsx] [--node-options "…"] [--env KEY=VALUE]… [--json]`:
 * a quoting daemon as a user runs it (`node bin/akira-mm.js run`, ETH/USDC, GLFT by default)
 * against the embedded exchange with synthetic flow, in real time, its resident set size and
 * threads read from /proc every S seconds for M minutes. One line per sample, then a summary: RSS
 * at the first sample after the warm-up (5 min, or the first fifth of a shorter run), the last,
 * the range after the warm-up, the least-squares slope in MB per hour (growth) with its 95 %
 * confidence interval, and the floor of the V8 heap in use per 10 minutes with its slope.
 *
 * `--breakdown` instead runs the daemon for M minutes (default 1) in each configuration that
 * decides its memory — tsx's loader thread or the compiled sources, 0/1/2 signing threads — and
 * prints the steady RSS of each (where the RSS goes: RELIABILITY.md "Lean daemon").
 * Linux only (/proc). The wall clock is read through the injected `LiveClock`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFlags, type CommandHelp } from '../../src/cli/args.ts';
import { UsageError, runReportingUsage } from '../../src/cli/io.ts';
import { LiveClock } from '../../src/core/index.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { startSim } from '../../src/sim/index.ts';
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
  /** Its 95 % confidence interval, MB per hour: growth is zero within the noise when it holds 0. */
  readonly growthCi95MbPerHour: readonly [number, number];
  /** The lowest V8 heap in use in each 10 minutes after the warm-up, MB (a leak raises it). */
  readonly heapFloorsMb: readonly number[];
  /** Least-squares slope of those floors, MB per hour. */
  readonly heapFloorGrowthMbPerHour: number;
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

/** Student's t at 97.5 % for 1…30 degrees of freedom (beyond 30 the normal 1.96 is within 4 %). */
const T_975 = [12.71, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/** A least-squares trend in MB per hour and its 95 % confidence interval. */
export interface Trend {
  readonly perHour: number;
  readonly low: number;
  readonly high: number;
}

/**
 * The least-squares slope of `value` over `minute`, per hour, with its 95 % confidence interval
 * (the slope's standard error times Student's t). RSS moves by a few MB from minute to minute as
 * V8 resizes its heap, so an hour's slope alone does not say whether memory grows: growth is
 * told apart from that noise only when the interval excludes zero.
 */
export function trendPerHour(points: readonly { readonly minute: number; readonly value: number }[]): Trend {
  const n = points.length;
  if (n < 3) return { perHour: 0, low: -Infinity, high: Infinity };
  const meanX = points.reduce((sum, point) => sum + point.minute, 0) / n;
  const meanY = points.reduce((sum, point) => sum + point.value, 0) / n;
  const sxx = points.reduce((sum, point) => sum + (point.minute - meanX) ** 2, 0);
  if (sxx === 0) return { perHour: 0, low: -Infinity, high: Infinity };
  const slope = points.reduce((sum, point) => sum + (point.minute - meanX) * (point.value - meanY), 0) / sxx;
  const residuals = points.reduce((sum, point) => sum + (point.value - meanY - slope * (point.minute - meanX)) ** 2, 0);
  const standardError = Math.sqrt(residuals / (n - 2) / sxx);
  const t = T_975[n - 3] ?? 1.96;
  return { perHour: slope * 60, low: (slope - t * standardError) * 60, high: (slope + t * standardError) * 60 };
}

/**
 * The V8 heap in use at its lowest in each `blockMinutes` after the warm-up: what the collector
 * could not free, so a leak raises it block after block while a sawtooth of garbage does not.
 */
export function heapFloors(samples: readonly MemorySample[], blockMinutes: number): { minute: number; value: number }[] {
  const start = samples[0]?.minute ?? 0;
  const blocks = new Map<number, number>();
  for (const sample of samples) {
    if (sample.heapUsedMb === undefined) continue;
    const block = Math.floor((sample.minute - start) / blockMinutes);
    blocks.set(block, Math.min(blocks.get(block) ?? Infinity, sample.heapUsedMb));
  }
  return [...blocks].map(([block, value]) => ({ minute: start + (block + 0.5) * blockMinutes, value }));
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
        heapUsedMb: mb('nodejs_heap_size_used_bytes'),
        heapTotalMb: mb('nodejs_heap_size_total_bytes'),
        externalMb: mb('nodejs_external_memory_bytes'),
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
  const growth = trendPerHour(steady.map((sample) => ({ minute: sample.minute, value: sample.rssMb })));
  const floors = heapFloors(steady, 10);
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
    growthMbPerHour: round1(growth.perHour),
    growthCi95MbPerHour: [round1(growth.low), round1(growth.high)],
    heapFloorsMb: floors.map((floor) => floor.value),
    heapFloorGrowthMbPerHour: round1(trendPerHour(floors).perHour),
    threads: samples.at(-1)?.threads ?? 0,
    exitCode: exit.code,
  };
}

function describeReport(report: MemoryReport): string {
  return `${report.runtime}, ${report.signingWorkers} signing thread(s), ${report.strategy}: steady ${report.steadyMinMb}–${report.steadyMaxMb} MB (start ${report.steadyStartMb}, end ${report.endMb}), growth ${report.growthMbPerHour} MB/h (95 % CI ${report.growthCi95MbPerHour[0]} … ${report.growthCi95MbPerHour[1]}), heap floors ${report.heapFloorsMb.join(' ')} MB (${report.heapFloorGrowthMbPerHour} MB/h), ${report.threads} threads, exit ${report.exitCode}`;
}

const USAGE = 'npm run memory -- [--minutes M] [--every-s S] [--strategy NAME] [--signing-workers N] [--tsx] [--node-options "…"] [--env KEY=VALUE]… [--breakdown] [--json]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary:
    'A quoting daemon as a user runs it (`node bin/akira-mm.js run`, ETH/USDC) against the embedded exchange with synthetic flow, in real time: its RSS and threads read from /proc every S seconds for M minutes, one line per sample, then the steady range, the growth per hour with its 95 % interval and the V8 heap floors. Linux only.',
};

const OPTIONS = {
  minutes: { type: 'string', value: 'M', unit: 'min', default: '60 (1 with --breakdown, per configuration)', doc: 'how long to run the daemon' },
  'every-s': { type: 'string', value: 'S', unit: 's', default: '60 (10 with --breakdown)', doc: 'sample this often' },
  strategy: { type: 'string', value: 'NAME', default: 'glft', doc: "the daemon's STRATEGY" },
  'signing-workers': { type: 'string', value: 'N', default: 0, doc: "the daemon's SIGNING_WORKERS (signing threads)" },
  tsx: { type: 'boolean', doc: 'run the daemon through tsx instead of the compiled sources' },
  'node-options': { type: 'string', value: '"…"', default: 'none', doc: "the daemon's NODE_OPTIONS (e.g. --max-semi-space-size=1; write --node-options=--flag for one flag)" },
  env: { type: 'string', value: 'KEY=VALUE', multiple: true, default: 'none', doc: "a key of the daemon's pair file" },
  breakdown: { type: 'boolean', doc: 'instead, the steady RSS of each configuration that decides it: tsx or compiled, 0/1/2 signing threads' },
  json: { type: 'boolean', doc: 'print the summary as one last JSON line too' },
} as const;

async function main(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, OPTIONS, HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${USAGE}`);
  const number = (name: string, text: string | undefined, fallback: number): number => {
    const value = text === undefined ? fallback : Number(text);
    if (!(value > 0) && !(name === 'signing-workers' && value === 0)) throw new UsageError(`--${name} must be a positive number, got "${text}"`);
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
  runReportingUsage('memory', process, () => main(process.argv.slice(2))).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`memory: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    },
  );
}
