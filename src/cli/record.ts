/**
 * `akira-mm record --env FILE --out FILE [--duration SECONDS]`: records the venue's public market
 * data of the pair in the env file (snap deltas after a snapshot, trades, bbo, gas price and
 * conversion rate) into the recording format backtests replay. Ctrl-C (or --duration) stops and
 * finishes the file; a killed recorder leaves a file that says it is incomplete.
 *
 * The pair's reference market (`REFERENCE` in the file, or `--reference binance:SYMBOL`) is
 * recorded beside it, on the same clock, into `--reference-out` (default `<out>.reference.data`);
 * with `--reference` and no `--env`, only the reference is recorded, into `--out`.
 */
import { resolve } from 'node:path';
import { LiveClock, createLogger, createRng, getChain, getToken } from '../core/index.ts';
import { MarketRecorder, RestClient, recordingScales, type RecordedEvent } from '../exchange/index.ts';
import { FLAG, KIND, RecordingWriter, SIDE_BUY, SIDE_NONE, SIDE_SELL } from '../backtest/data/index.ts';
import { integerFlag, parseFlags, type CommandHelp } from './args.ts';
import { waitForStopSignal } from './daemon.ts';
import { UsageError, type CommandRunner } from './io.ts';
import { INSECURE_PERMISSIONS_FLAG, pairFileOptions } from './file-permissions.ts';
import { loadPairFile } from './pair-config.ts';
import { resolveReferenceTarget, startReferenceRecording } from './record-reference.ts';
import { openLoginSigner } from './signer-setup.ts';

const USAGE =
  'akira-mm record [--env FILE] --out FILE [--duration SECONDS] [--reference binance:SYMBOL|off] [--reference-out FILE] [--reference-ws-url URL] [--reference-rest-url URL] [--insecure-permissions]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary:
    "Records the venue's public market data of the env file's pair (book, trades, bbo, gas price, conversion rate) in the format backtests replay, and its reference market (REFERENCE, or --reference) beside it. Ctrl-C or --duration finishes the files.",
  notes: ['With --reference and no --env, only the reference market is recorded, into --out (docs/data-format.md "Reference recordings").'],
};

const OPTIONS = {
  env: { type: 'string', value: 'FILE', required: 'required unless --reference records a reference alone', doc: "the pair's env file: venue URLs and pair" },
  out: { type: 'string', value: 'FILE', required: true, doc: 'the recording to write' },
  duration: { type: 'string', value: 'N', unit: 's', default: 'until Ctrl-C', doc: 'stop after this long' },
  reference: { type: 'string', value: 'binance:SYMBOL|off', default: "the env file's REFERENCE", doc: 'reference market to record beside the venue (off: none)' },
  'reference-out': { type: 'string', value: 'FILE', default: '<out>.reference.data (with --env), else --out', doc: 'where the reference recording goes' },
  'reference-ws-url': { type: 'string', value: 'URL', default: "REFERENCE_WS_URL, else wss://stream.binance.com:9443", doc: 'reference WebSocket base URL' },
  'reference-rest-url': { type: 'string', value: 'URL', default: 'REFERENCE_REST_URL, else https://api.binance.com', doc: 'reference REST base URL' },
  ...INSECURE_PERMISSIONS_FLAG,
} as const;

function toNs(ms: number): bigint {
  return BigInt(Math.round(ms * 1_000_000));
}

/** Resolves on SIGINT/SIGTERM, or after `duration` seconds when given. */
async function stopAfter(duration: number | undefined, clock: LiveClock): Promise<void> {
  const stop = waitForStopSignal();
  await (duration === undefined ? stop : Promise.race([stop, new Promise<string>((done) => clock.setTimeout(() => done('duration'), duration * 1_000))]));
}

export const runRecord: CommandRunner = async (args, io) => {
  const { values, positionals } = parseFlags(args, OPTIONS, HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${USAGE}`);
  if (values.env === undefined && values.reference === undefined) throw new UsageError(`--env FILE is required (or --reference binance:SYMBOL to record only a reference)\nusage: ${USAGE}`);
  if (values.out === undefined) throw new UsageError(`--out FILE is required\nusage: ${USAGE}`);
  const duration = values.duration === undefined ? undefined : integerFlag('duration', values.duration, 0, 1, 365 * 86_400);
  const fileOptions = pairFileOptions(io, values);
  const config = values.env === undefined ? undefined : loadPairFile(resolve(io.cwd, values.env), {}, fileOptions);
  const referenceTarget = resolveReferenceTarget(values, config, resolve(io.cwd, values.out), io.cwd);
  if (config === undefined) {
    if (referenceTarget === undefined) throw new UsageError(`--reference off records nothing without --env\nusage: ${USAGE}`);
    const clock = new LiveClock();
    const logger = createLogger({ level: io.env['LOG_LEVEL'] ?? 'info', base: { component: 'record' } });
    const reference = await startReferenceRecording(referenceTarget, { clock, rng: createRng(Number(clock.nowMs() % 2 ** 31)), logger });
    io.stderr.write(`recording binance:${referenceTarget.symbol} to ${referenceTarget.out}; Ctrl-C finishes the file\n`);
    await stopAfter(duration, clock);
    io.stdout.write(`${JSON.stringify({ reference: await reference.stop() })}\n`);
    logger.flush();
    return 0;
  }
  const chain = getChain(config.chain);
  const clock = new LiveClock();
  const rng = createRng(Number(clock.nowMs() % 2 ** 31));
  const logger = createLogger({ level: config.logLevel, base: { component: 'record' } });
  const account = BigInt(config.tradingAccount);
  const signer = await openLoginSigner(config, { io, logger, clock, permissions: fileOptions });
  const rest = new RestClient({ baseUrl: config.exchangeHttpUrl, chain, account, signer, clock, rng, logger });
  const pair = { base: config.base, quote: config.quote };
  const spec = (await rest.tickerSpecifications()).find((s) => s.base === pair.base && s.quote === pair.quote && s.isEcosystemBook === config.ecosystemBook);
  if (spec === undefined) throw new UsageError(`the venue lists no ${pair.base}/${pair.quote} ${config.ecosystemBook ? 'ecosystem' : 'router'} book`);
  const scales = recordingScales(spec, getToken(chain, pair.base).decimals, getToken(chain, pair.quote).decimals);
  const writer = new RecordingWriter(resolve(io.cwd, values.out), {
    symbol: `${pair.base}${pair.quote}`,
    source: 'akira',
    priceDecimals: scales.priceDecimals,
    qtyDecimals: scales.qtyDecimals,
    base: pair.base,
    quote: pair.quote,
  });
  const kinds = { depth: KIND.depth, trade: KIND.trade, bbo: KIND.bbo, clear: KIND.clear, gasPrice: KIND.gasPrice, conversionRate: KIND.conversionRate } as const;
  let lastLocalNs = 0n;
  const sink = {
    write(event: RecordedEvent): void {
      // Local time never goes back in a file; events handled in one tick share a timestamp.
      const localNs = toNs(event.localMs) < lastLocalNs ? lastLocalNs : toNs(event.localMs);
      lastLocalNs = localNs;
      writer.append({
        kind: kinds[event.kind],
        side: event.side === 'buy' ? SIDE_BUY : event.side === 'sell' ? SIDE_SELL : SIDE_NONE,
        flags: (event.endOfMessage === true ? FLAG.endOfMessage : 0) | (event.snapshot === true ? FLAG.snapshot : 0),
        exchNs: toNs(event.exchMs),
        localNs,
        ...(event.seq === undefined ? {} : { seq: Number(event.seq) }),
        ...(event.price === undefined ? {} : { price: event.price }),
        ...(event.qty === undefined ? {} : { qty: event.qty }),
        ...(event.aux1 === undefined ? {} : { aux1: event.aux1 }),
        ...(event.aux2 === undefined ? {} : { aux2: event.aux2 }),
      });
    },
  };
  const recorder = new MarketRecorder({
    rest,
    wsUrl: config.exchangeWsUrl,
    signerKey: signer.starkKey,
    chain,
    pair,
    ecosystem: config.ecosystemBook,
    scales,
    sink,
    clock,
    rng,
    logger,
  });
  await recorder.start();
  const reference = referenceTarget === undefined ? undefined : await startReferenceRecording(referenceTarget, { clock, rng, logger });
  io.stderr.write(`recording ${pair.base}/${pair.quote} from ${config.exchangeHttpUrl} to ${values.out}${referenceTarget === undefined ? '' : ` and binance:${referenceTarget.symbol} to ${referenceTarget.out}`}; Ctrl-C finishes the file\n`);
  await stopAfter(duration, clock);
  await recorder.stop();
  const header = writer.close();
  await rest.close();
  const referenceSummary = await reference?.stop();
  await signer.close();
  const c = recorder.counts;
  io.stdout.write(
    `${JSON.stringify({ out: values.out, records: header.records, depth: c.depth, trades: c.trades, bbo: c.bbo, snapshots: c.snapshots, gaps: c.gaps, gas: c.gas, tick: header.tick, lot: header.lot, ...(referenceSummary === undefined ? {} : { reference: referenceSummary }) })}\n`,
  );
  logger.flush();
  return 0;
};
