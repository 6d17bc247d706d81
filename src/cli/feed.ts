/**
 * `akira-mm feed --data FILE --port N [--speed X|max] [--loop] [--host H]`: serves a recorded
 * Binance spot market over Binance's own WebSocket and REST protocol on loopback, so the bot's
 * reference feed (`REFERENCE_WS_URL=ws://127.0.0.1:N`, `REFERENCE_REST_URL=http://127.0.0.1:N`)
 * and `akira-mm sim --flow-follow` can run against a real recorded market with no network.
 */
import { resolve } from 'node:path';
import { LiveClock, MmError, createLogger } from '../core/index.ts';
import { readAccountsFile, startFeedServer } from '../markets/binance/server/index.ts';
import { integerFlag, parseFlags, type CommandHelp } from './args.ts';
import { waitForStopSignal } from './daemon.ts';
import { UsageError, type CommandRunner } from './io.ts';

const USAGE = 'akira-mm feed --data FILE [--data FILE]… --port N [--speed X|max] [--loop] [--host H] [--accounts FILE]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary: "Serves a recorded Binance spot market on loopback over Binance's own WebSocket and REST protocol. The replay's clock starts when the first client subscribes; event times are the time of sending.",
  notes: [
    [
      'WebSocket: /stream?streams=<symbol>@bookTicker/<symbol>@depth@100ms/<symbol>@trade (combined), /ws/<stream> (raw),',
      '  SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS / SET_PROPERTY, a ping every 20 s (answer within 60 s),',
      '  5 incoming messages/s, connections closed at 24 h.',
      'REST: /api/v3/depth?symbol=&limit= (a snapshot that bridges onto the diff stream), /api/v3/ping,',
      '  /api/v3/time, /api/v3/exchangeInfo.',
    ].join('\n'),
    'Point the bot at it: REFERENCE=binance:<SYMBOL> REFERENCE_WS_URL=ws://127.0.0.1:N REFERENCE_REST_URL=http://127.0.0.1:N',
    [
      'With --accounts FILE it is also a hedge venue for those accounts: POST/GET/DELETE /api/v3/order (MARKET, LIMIT IOC/FOK/GTC),',
      '  /api/v3/openOrders, /api/v3/account, exchangeInfo with PRICE_FILTER, LOT_SIZE, MARKET_LOT_SIZE, NOTIONAL and the REQUEST_WEIGHT',
      '  and ORDERS limits, and the WebSocket API at /ws-api/v3 (session.logon, userDataStream.subscribe[.signature]); taker orders',
      '  match against the replayed book. Binance\'s errors: -1021 (timestamp), -1022 (signature), -2010 (balance, duplicate id),',
      '  -1013 (filters), 429 -1003/-1015 and 418 with Retry-After. The file: {"accounts":[{"apiKey","secretKey"|"ed25519PublicKey",',
      '  "balances":{"ETH":"10","USDT":"30000"},"takerCommission":"0.001"}]} (docs/hedge.md).',
      'Point the bot at it: HEDGE=binance:<SYMBOL> HEDGE_REST_URL=http://127.0.0.1:N HEDGE_WS_URL=ws://127.0.0.1:N/ws-api/v3 HEDGE_STREAM_URL=ws://127.0.0.1:N',
    ].join('\n'),
  ],
};

const OPTIONS = {
  data: {
    type: 'string',
    multiple: true,
    value: 'FILE',
    required: true,
    doc: 'recording to serve, files in time order: hftbacktest/Binance raw lines (.gz or plain, e.g. ../shared/data/binance-spot-hftbacktest/ethusdt_20240808.gz) or an akira-mm recording (data import --format binance, record --reference)',
  },
  port: { type: 'string', value: 'N', unit: 'port', required: true, doc: 'TCP port to listen on (0 = any free port)' },
  host: { type: 'string', value: 'H', default: '127.0.0.1', doc: 'interface to bind' },
  speed: { type: 'string', value: 'X|max', unit: '× recorded pace', default: 1, doc: 'replay pace: 10 = ten times faster, 0.5 = half as fast, max = as fast as the clients read' },
  loop: { type: 'boolean', doc: 'start again at the end, ids moved ahead so clients resync (off: at the end close every stream with code 1000 and exit 0)' },
  accounts: { type: 'string', value: 'FILE', default: 'none (market data only)', doc: 'trading accounts (JSON: API keys, balances, commission): serve Binance\'s trading endpoints and user data stream for them' },
} as const;

/** `--speed` as a positive multiple of the recorded pace, or `max`. */
export function parseSpeed(text: string | undefined): number | 'max' {
  if (text === undefined) return 1;
  if (text === 'max') return 'max';
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(value > 0) || value > 1_000_000) throw new UsageError(`--speed ${text}: expected a number above 0 (1 = recorded pace) or max`);
  return value;
}

export const runFeed: CommandRunner = async (args, io) => {
  const { values, positionals } = parseFlags(args, OPTIONS, HELP);
  const files = [...(values.data ?? []), ...positionals].map((file) => resolve(io.cwd, file));
  if (files.length === 0) throw new UsageError(`--data FILE is required\nusage: ${USAGE}`);
  if (values.port === undefined) throw new UsageError(`--port N is required (0 = any free port)\nusage: ${USAGE}`);
  const port = integerFlag('port', values.port, 0, 0, 65_535);
  const speed = parseSpeed(values.speed);
  const logger = createLogger({ level: io.env['LOG_LEVEL'] ?? 'info', base: { component: 'feed' } });
  let accounts;
  try {
    accounts = values.accounts === undefined ? undefined : readAccountsFile(resolve(io.cwd, values.accounts));
  } catch (error) {
    throw new UsageError(`--accounts: ${error instanceof Error ? error.message : String(error)}`);
  }
  let server;
  try {
    server = await startFeedServer({ files, port, host: values.host ?? '127.0.0.1', speed, loop: values.loop === true, clock: new LiveClock(), logger, ...(accounts === undefined ? {} : { accounts }) });
  } catch (error) {
    if (error instanceof MmError && /^(BINANCE|DATA)_/.test(error.code)) throw new UsageError(`--data: ${error.message}`);
    throw error;
  }
  io.stdout.write(`${JSON.stringify({ symbol: server.symbol, httpUrl: server.httpUrl, wsUrl: server.wsUrl, ...(server.trading === undefined ? {} : { wsApiUrl: server.trading.wsApiUrl }), speed, loop: values.loop === true })}\n`);
  logger.info({ symbol: server.symbol, httpUrl: server.httpUrl, wsUrl: server.wsUrl }, `serving ${server.symbol}; the replay starts with the first subscriber`);
  const reason = await Promise.race([server.done.then(() => 'end of recording'), waitForStopSignal()]);
  const stats = server.stats();
  await server.stop();
  io.stdout.write(
    `${JSON.stringify({ ended: reason, passes: stats.replay.loops, depth: stats.replay.depth, tickers: stats.replay.tickers, trades: stats.replay.trades, connections: stats.streams.connectionsTotal, frames: stats.streams.framesSent, skipped: stats.skipped })}\n`,
  );
  logger.flush();
  return 0;
};
