/**
 * `akira-mm fit --data FILE… --horizon 1s [--train-share 0.5] [--env PAIR.env [--write]] [--json]`:
 * fits the alpha term offline (issue 24). The recording is streamed through the same signals the
 * engine quotes with (src/backtest/fit/signal-samples.ts), the mid's move over the horizon is
 * regressed on them over the first share of time, and the fit is judged on the rest (out-of-sample
 * R², each signal's correlation and its own out-of-sample R²). `--write` puts the coefficients
 * into the pair file as ALPHA_* keys, every other line kept.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import { SIGNAL_KEYS, formatConfigIssues, readKeys, settingsOf, type SignalSettings } from '../core/index.ts';
import { ALPHA_KEY_OF, ALPHA_SIGNALS, type AlphaSignal } from '../../strategies/index.ts';
import { DataError } from '../backtest/data/index.ts';
import { collectSignalSamples, type SignalSamples } from '../backtest/fit/signal-samples.ts';
import { correlation, fitLinear, rSquared, type LinearFit } from '../backtest/fit/least-squares.ts';
import { parseFlags } from './args.ts';
import { setEnvKeys } from './env-edit.ts';
import { UsageError, type CliIo } from './io.ts';

const USAGE = 'akira-mm fit --data FILE… [--horizon 1s] [--train-share 0.5] [--sample-ms 100] [--ridge λ] [--env PAIR.env [--write]] [--json]';

const OPTIONS = {
  data: { type: 'string', multiple: true, value: 'FILE', required: true, doc: 'a recording (project format: `akira-mm data import`); several continue one another' },
  horizon: { type: 'string', value: 'DURATION', default: '1s', doc: 'the move predicted: the mid this long after each sample (e.g. 500ms, 1s, 5s)' },
  'train-share': { type: 'string', value: 'X', default: 0.5, doc: 'the first share of the samples (in time) the fit is made on; the rest judges it' },
  'sample-ms': { type: 'string', value: 'N', unit: 'ms', default: 100, doc: 'one sample per this much exchange time; 0 = after every book change' },
  ridge: { type: 'string', value: 'λ', default: 0, doc: 'ridge penalty λ·n·Σβ² (the intercept free); 0 = ordinary least squares' },
  env: { type: 'string', value: 'FILE', doc: 'a pair file: its SIGNAL_* keys shape the signals (else their defaults); --write writes the weights into it' },
  write: { type: 'boolean', doc: 'write ALPHA_OBI_BPS, ALPHA_OFI_BPS and ALPHA_TRADE_FLOW_BPS into --env, keeping its other lines' },
  json: { type: 'boolean', doc: 'print the result as one JSON object' },
} as const;

/** Names of the signals as the output (and the metrics) spell them. */
const OUTPUT_NAME: Readonly<Record<AlphaSignal, string>> = { obi: 'obi', ofi: 'ofi', tradeFlow: 'trade_flow' };

/** The first characters of the comment `--write` leaves above the weights (an older one is replaced). */
const WRITE_MARKER = '# ALPHA_* weights from akira-mm fit';

/** What one signal did. */
interface SignalResult {
  /** bps of the fair price per unit of the signal; 0 when it did not vary (not fitted). */
  readonly coefficientBps: number;
  readonly isFitted: boolean;
  /** Correlation with the move over the test part. */
  readonly testCorrelation: number;
  /** R² over the test part of the signal alone, fitted on the training part. */
  readonly testR2Alone: number;
}

/** The whole result, as `--json` prints it (its keys are a contract). */
interface FitResult {
  readonly data: readonly string[];
  readonly horizonMs: number;
  readonly sampleMs: number;
  readonly trainShare: number;
  readonly ridgeLambda: number;
  readonly events: number;
  readonly samples: { readonly train: number; readonly test: number };
  readonly interceptBps: number;
  readonly r2: { readonly inSample: number; readonly outOfSample: number };
  readonly signals: Readonly<Record<string, SignalResult>>;
  readonly written?: string;
}

/** `1s`, `500ms`, `2.5s`, `1m` → ms (`flag` names it in the error). */
export function parseDuration(text: string, flag = 'horizon'): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text.trim());
  const value = match === null ? Number.NaN : Number(match[1]) * (match[2] === 'ms' ? 1 : match[2] === 's' ? 1_000 : 60_000);
  if (!(value > 0)) throw new UsageError(`--${flag}=${text}: a positive duration with its unit, ms, s or m (e.g. 500ms, 1s)`);
  return value;
}

function parseNumber(flag: string, text: string, min: number, max: number, isMinExclusive = false): number {
  const value = Number(text);
  const isBelow = isMinExclusive ? !(value > min) : !(value >= min);
  if (text.trim() === '' || !Number.isFinite(value) || isBelow || value > max) throw new UsageError(`--${flag}=${text}: a number ${isMinExclusive ? '>' : '≥'} ${min} and ≤ ${max}`);
  return value;
}

/** The SIGNAL_* (and ALPHA_*) settings of the pair file with `overrides` (a walk-forward's --set), or the defaults. */
export function signalSettingsOf(envPath: string | undefined, overrides: Readonly<Record<string, string>> = {}): SignalSettings {
  const env = { ...(envPath === undefined ? {} : readEnv(envPath)), ...overrides };
  const read = readKeys(SIGNAL_KEYS, env);
  if (!read.ok) throw new UsageError(`invalid signal keys in ${envPath ?? 'the defaults'}:\n${formatConfigIssues(read.issues)}`);
  return settingsOf(SIGNAL_KEYS, 'signals', read.params);
}

function readEnv(path: string): Record<string, string> {
  try {
    return parseDotenv(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read --env ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The alpha weights: the moves regressed on the signals (rows of `ALPHA_SIGNALS` values), one
 * coefficient per signal. A signal that never moved over the rows (no trades in the file) cannot
 * be fitted: its coefficient is 0 and `fitted` says so. A walk-forward fits each training span
 * with it.
 */
export function fitAlphaWeights(rows: readonly number[][], moves: readonly number[], lambda: number): { readonly fit: LinearFit; readonly fitted: readonly boolean[] } {
  const fitted = ALPHA_SIGNALS.map((_, j) => rows.some((row) => row[j] !== rows[0]?.[j]));
  const columns = (all: readonly number[][]): number[][] => all.map((row) => row.filter((_, j) => fitted[j]));
  const fit = fitted.some(Boolean) ? fitLinear(columns(rows), moves, lambda) : { intercept: moves.reduce((a, b) => a + b, 0) / moves.length, coefficients: [] };
  const full: LinearFit = { intercept: fit.intercept, coefficients: [] };
  let next = 0;
  for (const isFitted of fitted) full.coefficients.push(isFitted ? (fit.coefficients[next++] as number) : 0);
  return { fit: full, fitted };
}

/** Fits on the first `trainShare` of the samples and judges on the rest. */
function fitSamples(samples: SignalSamples, trainShare: number, lambda: number): Omit<FitResult, 'data' | 'horizonMs' | 'sampleMs' | 'trainShare' | 'ridgeLambda' | 'events'> {
  const split = Math.floor(samples.features.length * trainShare);
  const trainX = samples.features.slice(0, split);
  const trainY = samples.movesBps.slice(0, split);
  const testX = samples.features.slice(split);
  const testY = samples.movesBps.slice(split);
  if (trainX.length < 10 || testX.length < 10) throw new UsageError(`${samples.features.length} samples: too few to fit on ${trainX.length} and judge on ${testX.length} (a longer recording, a shorter --sample-ms, or another --train-share)`);
  const { fit: full, fitted } = fitAlphaWeights(trainX, trainY, lambda);
  const signals: Record<string, SignalResult> = {};
  ALPHA_SIGNALS.forEach((name, j) => {
    const column = (rows: readonly number[][]): number[][] => rows.map((row) => [row[j] as number]);
    const alone = fitted[j] === true ? fitLinear(column(trainX), trainY, lambda) : undefined;
    signals[OUTPUT_NAME[name]] = {
      coefficientBps: full.coefficients[j] as number,
      isFitted: fitted[j] === true,
      testCorrelation: correlation(testX.map((row) => row[j] as number), testY),
      testR2Alone: alone === undefined ? Number.NaN : rSquared(alone, column(testX), testY),
    };
  });
  return {
    samples: { train: trainX.length, test: testX.length },
    interceptBps: full.intercept,
    r2: { inSample: rSquared(full, trainX, trainY), outOfSample: rSquared(full, testX, testY) },
    signals,
  };
}

/** A weight as the key takes it: plain decimal text, 4 places, never `-0`. */
export function weightText(value: number): string {
  const text = value.toFixed(4);
  return Number(text) === 0 ? '0' : text;
}

function renderText(result: FitResult): string {
  const pct = (share: number): string => `${Math.round(share * 100)} %`;
  const f = (value: number, digits = 4): string => (Number.isNaN(value) ? 'n/a' : value.toFixed(digits));
  const lines = [
    `fit of the mid's move over ${result.horizonMs} ms on ${result.data.join(' + ')}`,
    `${result.events} events; ${result.samples.train + result.samples.test} samples ${result.sampleMs === 0 ? 'at every book change' : `every ${result.sampleMs} ms`}: the first ${pct(result.trainShare)} (${result.samples.train}) fit, the rest (${result.samples.test}) judge; ridge λ ${result.ridgeLambda}`,
    '',
    'signal       weight (bps per unit)   test corr   test R² alone',
    ...Object.entries(result.signals).map(([name, s]) => `${name.padEnd(12)} ${(s.isFitted ? f(s.coefficientBps) : '0 (constant)').padStart(20)}   ${f(s.testCorrelation, 3).padStart(9)}   ${f(s.testR2Alone).padStart(13)}`),
    `${'intercept'.padEnd(12)} ${f(result.interceptBps).padStart(20)}   (not written: a drift, not a signal)`,
    '',
    `R² in sample ${f(result.r2.inSample)}, out of sample ${f(result.r2.outOfSample)}`,
  ];
  if (result.written !== undefined) lines.push(`wrote ${ALPHA_SIGNALS.map((name) => ALPHA_KEY_OF[name]).join(', ')} into ${result.written}`);
  return `${lines.join('\n')}\n`;
}

/** Runs `akira-mm fit`. */
export async function runFit(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(args, OPTIONS, {
    usage: USAGE,
    summary: 'Fits the alpha term: regresses the mid\'s move over the horizon on the signals the engine quotes with, on the first part of a recording, and judges the fit on the rest.',
    notes: ['The weights are bps of the fair price per unit of each signal (docs/strategies.md "Signals and the alpha term"); the engine clamps their sum to ALPHA_MAX_BPS.'],
  });
  const data = values.data ?? [];
  if (data.length === 0) throw new UsageError(`--data FILE is required\nusage: ${USAGE}`);
  if (values.write === true && values.env === undefined) throw new UsageError('--write needs --env PAIR.env: the pair file the weights go into');
  const horizonMs = parseDuration(values.horizon ?? '1s');
  const trainShare = parseNumber('train-share', values['train-share'] ?? '0.5', 0, 1, true);
  if (trainShare >= 1) throw new UsageError(`--train-share=${values['train-share']}: a number > 0 and < 1 (the rest judges the fit)`);
  const sampleMs = parseNumber('sample-ms', values['sample-ms'] ?? '100', 0, 3_600_000);
  const ridgeLambda = parseNumber('ridge', values.ridge ?? '0', 0, 1e9);
  const settings = signalSettingsOf(values.env);
  let samples: SignalSamples;
  try {
    samples = await collectSignalSamples(data, settings, { horizonMs, sampleMs });
  } catch (error) {
    if (error instanceof DataError) throw new UsageError(error.message);
    throw error;
  }
  const fitted = fitSamples(samples, trainShare, ridgeLambda);
  let written: string | undefined;
  if (values.write === true && values.env !== undefined) {
    const path = values.env;
    const entries = ALPHA_SIGNALS.map((name) => [ALPHA_KEY_OF[name], weightText(fitted.signals[OUTPUT_NAME[name]]?.coefficientBps ?? 0)] as const);
    const comment = `${WRITE_MARKER} --horizon ${horizonMs}ms on ${data.join(' + ')}: out-of-sample R² ${fitted.r2.outOfSample.toFixed(4)} (in sample ${fitted.r2.inSample.toFixed(4)}, ${fitted.samples.test} test samples)`;
    writeFileSync(path, setEnvKeys(readFileSync(path, 'utf8'), entries, comment, WRITE_MARKER));
    written = path;
  }
  const result: FitResult = { data, horizonMs, sampleMs, trainShare, ridgeLambda, events: samples.events, ...fitted, ...(written === undefined ? {} : { written }) };
  io.stdout.write(values.json === true ? `${JSON.stringify(result)}\n` : renderText(result));
  return 0;
}
