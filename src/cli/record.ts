/**
 * `akira-mm record --env FILE --out FILE [--duration SECONDS]`: records the venue's public market
 * data of the pair in the env file (snap deltas after a snapshot, trades, bbo, gas price and
 * conversion rate) into the recording format backtests replay. Ctrl-C (or --duration) stops and
 * finishes the file; a killed recorder leaves a file that says it is incomplete.
 */
import { resolve } from 'node:path';
import { LiveClock, createLogger, createRng, getChain, getToken } from '../core/index.ts';
import { MarketRecorder, RestClient, recordingScales, type RecordedEvent } from '../exchange/index.ts';
import { FLAG, KIND, SIDE_BUY, SIDE_NONE, SIDE_SELL } from '../backtest/data/format.ts';
import { RecordingWriter } from '../backtest/data/writer.ts';
import { integerFlag, parseFlags, type CommandHelp } from './args.ts';
import { waitForStopSignal } from './daemon.ts';
import { UsageError, type CommandRunner } from './io.ts';
import { INSECURE_PERMISSIONS_FLAG, pairFileOptions } from './file-permissions.ts';
import { loadPairFile } from './pair-config.ts';
import { openLoginSigner } from './signer-setup.ts';

const USAGE = 'akira-mm record --env FILE --out FILE [--duration SECONDS] [--insecure-permissions]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary: "Records the venue's public market data of the env file's pair (book, trades, bbo, gas price, conversion rate) in the format backtests replay. Ctrl-C or --duration finishes the file.",
};

const OPTIONS = {
  env: { type: 'string', value: 'FILE', required: true, doc: "the pair's env file: venue URLs and pair" },
  out: { type: 'string', value: 'FILE', required: true, doc: 'the recording to write' },
  duration: { type: 'string', value: 'N', unit: 's', default: 'until Ctrl-C', doc: 'stop after this long' },
  ...INSECURE_PERMISSIONS_FLAG,
} as const;

function toNs(ms: number): bigint {
  return BigInt(Math.round(ms * 1_000_000));
}

export const runRecord: CommandRunner = async (args, io) => {
  const { values, positionals } = parseFlags(args, OPTIONS, HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${USAGE}`);
  if (values.env === undefined) throw new UsageError(`--env FILE is required\nusage: ${USAGE}`);
  if (values.out === undefined) throw new UsageError(`--out FILE is required\nusage: ${USAGE}`);
  const duration = values.duration === undefined ? undefined : integerFlag('duration', values.duration, 0, 1, 365 * 86_400);
  const fileOptions = pairFileOptions(io, values);
  const config = loadPairFile(resolve(io.cwd, values.env), {}, fileOptions);
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
  io.stderr.write(`recording ${pair.base}/${pair.quote} from ${config.exchangeHttpUrl} to ${values.out}; Ctrl-C finishes the file\n`);
  const stop = waitForStopSignal();
  await (duration === undefined ? stop : Promise.race([stop, new Promise<string>((done) => clock.setTimeout(() => done('duration'), duration * 1_000))]));
  await recorder.stop();
  const header = writer.close();
  await rest.close();
  await signer.close();
  const c = recorder.counts;
  io.stdout.write(`${JSON.stringify({ out: values.out, records: header.records, depth: c.depth, trades: c.trades, bbo: c.bbo, snapshots: c.snapshots, gaps: c.gaps, gas: c.gas, tick: header.tick, lot: header.lot })}\n`);
  logger.flush();
  return 0;
};
