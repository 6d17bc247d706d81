// The layers of ARCHITECTURE.md ("Layers: each folder one job; arrows point one way") as rules that
// dependency-cruiser checks in `npm test` (alone: `npm run deps`). A layer may import itself and the
// layers listed beside it; npm packages and Node's own modules are not ours and stay free. Imports
// of types count like any other (tsPreCompilationDeps): a type that climbs back up ties two layers,
// or closes a circle, as surely as a value does.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every file of this repository that a rule may point at. */
const OURS = '^(src|strategies|tools|test|bench|bin)/';

/** The layers, as path patterns (ARCHITECTURE.md's table, top to bottom). */
const CORE = '^src/core/';
const CONFIG = '^src/config/';
const EXCHANGE = '^src/exchange/';
const ENGINE = '^src/engine/';
const STRATEGIES = '^strategies/';
const SIM = '^src/sim/';
const BACKTEST = '^src/backtest/';
/** Recorded data: the recording format, its reader and writer, importers, and the event source a replay reads. */
const DATA = '^src/backtest/data/';
const MARKETS = '^src/markets/';
/** The loopback doubles of other markets (`akira-mm feed`). */
const MARKET_DOUBLES = '^src/markets/[^/]+/server/';
/** Operations beside the engine: the notifier and its adapters from the engine's reports. */
const OPS = '^src/ops/';
const CLI = '^src/cli(\\.ts$|/)';
/** The page kit of every HTML page of ours (the backtest reports, the dashboard): shell, style, uPlot, chart kit. */
const HTML = '^src/html/';
/** The live dashboard a daemon serves beside /metrics (operations beside the engine). */
const DASHBOARD = '^src/ops/dashboard/';
const PRODUCT = ['^src/', STRATEGIES];

/** A rule: files matching `from` (minus `fromNot`) import nothing of ours outside `allowed`. */
function layer(name, comment, { from, fromNot, allowed }) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: from, ...(fromNot === undefined ? {} : { pathNot: fromNot }) },
    to: { path: OURS, pathNot: allowed },
  };
}

/** Folders (under src/ and strategies/) that have an index.ts: their public surface. */
function foldersWithIndex(dir) {
  const found = existsSync(join(dir, 'index.ts')) ? [dir] : [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) found.push(...foldersWithIndex(join(dir, entry.name)));
  }
  return found;
}
const SURFACES = [...foldersWithIndex('src'), ...foldersWithIndex('strategies')].map((dir) => dir.split('\\').join('/').replaceAll('.', '\\.'));

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import circle across files, type-only ones included: shared types move down to the file both sides import.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer('core-imports-nothing-of-ours', 'src/core: domain types and pure helpers; it imports nothing of ours.', {
      from: CORE,
      allowed: [CORE],
    }),
    layer('config-imports-core', 'src/config reads and validates env files into typed values; it may import core only.', {
      from: CONFIG,
      allowed: [CONFIG, CORE],
    }),
    layer('exchange-imports-core', 'src/exchange, the exchange API as a typed client, may import core only.', {
      from: EXCHANGE,
      allowed: [EXCHANGE, CORE],
    }),
    layer(
      'engine-imports-core-and-strategies',
      'src/engine sees venues only through the ports of core (never src/exchange) and runs strategies.',
      { from: ENGINE, allowed: [ENGINE, CORE, STRATEGIES] },
    ),
    layer('strategies-import-core', 'strategies/ are pure functions over core types.', {
      from: STRATEGIES,
      allowed: [STRATEGIES, CORE],
    }),
    layer('sim-imports-core-and-exchange', 'src/sim, the embedded exchange, may import core and exchange (wire types, hashing to verify signatures).', {
      from: SIM,
      allowed: [SIM, CORE, EXCHANGE],
    }),
    layer(
      'recorded-data-imports-core',
      'src/backtest/data is the bottom of the backtest: the replay, the doubles and the CLI read recordings through it, ' +
        'so it imports core only (never the runs above it, nor a market client: the Binance recorder that joins the two lives in src/cli).',
      { from: DATA, allowed: [DATA, CORE] },
    ),
    layer('backtest-imports-core-engine-strategies', 'src/backtest: the replay venue and runs; it may import core, engine and strategies (and the page kit, for its reports).', {
      from: BACKTEST,
      fromNot: DATA,
      allowed: [BACKTEST, CORE, ENGINE, STRATEGIES, HTML],
    }),
    layer('html-imports-nothing-of-ours', 'src/html, the page kit the reports and the dashboard share, imports nothing of ours.', {
      from: HTML,
      allowed: [HTML],
    }),
    layer(
      'dashboard-imports-core-engine-html',
      'src/ops/dashboard reads what the engine reports (status, observer events, its metrics) beside it, never inside it, and builds its page with the kit.',
      { from: DASHBOARD, allowed: [DASHBOARD, CORE, ENGINE, HTML] },
    ),
    layer('markets-import-core', 'src/markets/<venue>: other markets\' clients, which implement the ports of core.', {
      from: MARKETS,
      fromNot: MARKET_DOUBLES,
      allowed: [MARKETS, CORE],
    }),
    layer(
      'market-doubles-import-core-and-recorded-data',
      'A market\'s loopback double (src/markets/<venue>/server) replays recordings, ours among them, so it may read them ' +
        'through src/backtest/data besides core; ARCHITECTURE.md\'s table says "markets: core" and predates the doubles ' +
        'reading our recording format (one reader of the format, not two).',
      { from: MARKET_DOUBLES, allowed: [MARKETS, CORE, DATA] },
    ),
    layer(
      'ops-imports-core-and-engine',
      'src/ops: operations beside the engine, never inside it (ARCHITECTURE.md "Growing the house"): the notifier hears the engine ' +
        'through its observer and status types, so it may import core and engine; the engine never imports it, and the CLI wires it in. ' +
        'src/ops/dashboard has its own rule (it also builds its page with src/html).',
      { from: OPS, fromNot: DASHBOARD, allowed: [OPS, CORE, ENGINE] },
    ),
    layer('cli-imports-the-product', 'src/cli.ts and src/cli/ wire everything above together, and nothing outside the product.', {
      from: CLI,
      allowed: PRODUCT,
    }),
    layer('tools-import-the-product', 'tools/ (fault campaigns, soak, memory runs) drive the product from outside; the product never imports them.', {
      from: '^tools/',
      allowed: [...PRODUCT, '^tools/'],
    }),
    layer('bin-starts-the-cli', 'bin/ starts the CLI.', { from: '^bin/', allowed: ['^bin/', '^src/'] }),
    {
      name: 'other-layers-through-their-surface',
      comment:
        "A folder that has an index.ts is reached from another layer through it (STYLE.md: small public surface). " +
        'Four leaves are imported alone so that a process does not load the whole surface: the fast-sign hash ' +
        '(the sim verifies challenges without the REST client and undici), the lazy starknet.js loader (the sim\'s RPC), ' +
        "the Binance double's NOTIONAL minimum (a backtest's hedge applies it without loading the double), " +
        "and core's Prometheus conventions (prom-client, ~12 MB: only the modules that register metrics load it, not every worker that imports core).",
      severity: 'error',
      from: { path: '^(src/[^/.]+|strategies)(/|\\.ts$)' },
      to: {
        path: `^(${SURFACES.join('|')})/[^/]+$`,
        pathNot: [
          '^$1/',
          '/index\\.ts$',
          '^src/exchange/client/fast-sign\\.ts$',
          '^src/exchange/chain/starknet-js\\.ts$',
          '^src/markets/binance/server/market-routes\\.ts$',
          '^src/core/prometheus\\.ts$',
        ],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|coverage)/' },
  },
};
