/**
 * The one entry point: `akira-mm <command> …`. Each command lives in `src/cli/<command>.ts` and is
 * loaded only when used, so `akira-mm hash` does not pay for the exchange or the backtester.
 */
import { EXIT_USAGE, UnknownNameError, runReportingUsage, type CliIo, type CommandRunner } from './cli/io.ts';

interface CommandEntry {
  readonly summary: string;
  readonly load: () => Promise<CommandRunner>;
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  hash: {
    summary: 'hash <order|cancel|cancel-all|withdraw|increase-nonce> --chain <mainnet|sepolia> [FILE|-]   print the message hash of a POST body',
    load: async () => (await import('./cli/hash.ts')).runHash,
  },
  keys: {
    summary: 'keys new [--keystore FILE] | keys import --keystore FILE | keys inspect --keystore FILE   a fresh key pair; encrypted keystores (starkli format)',
    load: async () => (await import('./cli/keys.ts')).runKeys,
  },
  config: {
    summary: 'config example | config check --env FILE   print every env key, or validate a pair file',
    load: async () => (await import('./cli/config.ts')).runConfig,
  },
  sim: {
    summary: 'sim [--port N] [--chain mainnet|sepolia] [--accounts FILE] [--seed N] [--no-flow]   run the embedded exchange (HTTP + WS)',
    load: async () => (await import('./cli/sim.ts')).runSim,
  },
  data: {
    summary: 'data import --format <binance|lobster|bitstamp|akira> FILES… --out FILE | data bbo FILE   convert a recording; print its rebuilt top of book',
    load: async () => (await import('./cli/data.ts')).runData,
  },
  backtest: {
    summary: 'backtest --data FILE… --env FILE [--report out.html] [--json] [--sweep KEY=v1,v2]…   replay a recording through the engine',
    load: async () => (await import('./cli/backtest.ts')).runBacktestCommand,
  },
  walkforward: {
    summary: 'walkforward --train FILE… --test FILE… --env FILE [--sweep KEY=v1,v2]… [--env FILE …]   tune on a span, freeze, report the next span held out',
    load: async () => (await import('./cli/walkforward.ts')).runWalkforwardCommand,
  },
  fit: {
    summary: 'fit --data FILE… [--horizon 1s] [--train-share 0.5] [--env FILE [--write]] [--json]   fit the alpha term\'s weights on a recording (out-of-sample R²)',
    load: async () => (await import('./cli/fit.ts')).runFit,
  },
  parity: {
    summary: 'parity --journal FILE --recording FILE… --env FILE [--json] [--report out.html]   a live or paper session beside the backtest of its recording, fill by fill',
    load: async () => (await import('./cli/parity.ts')).runParity,
  },
  record: {
    summary: 'record --env FILE --out FILE [--duration S]   record the venue\'s book, trades, bbo, gas and rate for backtests',
    load: async () => (await import('./cli/record.ts')).runRecord,
  },
  run: {
    summary: 'run --env FILE [--metrics-host H] [--journal FILE]   market-make one pair live (LayerAkira or a running sim)',
    load: async () => (await import('./cli/run.ts')).runRun,
  },
  paper: {
    summary: 'paper [--env FILE] [--port N] [--duration S] [--metrics-port N]   paper trading against the embedded exchange (npm start)',
    load: async () => (await import('./cli/paper.ts')).runPaper,
  },
  preflight: {
    summary: 'preflight --env FILE [--order-test]           check a live setup before real money (one line per check, exit 0 when all pass)',
    load: async () => (await import('./cli/preflight.ts')).runPreflightCommand,
  },
  feed: {
    summary: 'feed --data FILE --port N [--speed X|max] [--loop] [--host H]   serve a recorded Binance market over Binance\'s WS + REST protocol on loopback',
    load: async () => (await import('./cli/feed.ts')).runFeed,
  },
  signer: {
    summary: 'signer serve --keystore FILE --socket PATH --env FILE…   hold the key in its own process; sign over a Unix socket what the policy allows',
    load: async () => (await import('./cli/signer.ts')).runSigner,
  },
  ctl: {
    summary: 'ctl <status|pause|resume|cancel-all|set KEY=VALUE|reload> [--pair BASE/QUOTE] [--env FILE | --state-dir DIR] [--json]   steer a running daemon over its control socket',
    load: async () => (await import('./cli/ctl.ts')).runCtl,
  },
  account: {
    summary: 'account <status|setup|approve|deposit|bind|grant-executor|withdraw> --env FILE [--yes] [--dry-run] [--json]   from a funded Starknet wallet to an account ready to quote, and back out (ACCOUNT_KEYSTORE)',
    load: async () => (await import('./cli/account.ts')).runAccount,
  },
  hedge: {
    summary: 'hedge flatten --env FILE [--journal FILE]   hedge on the hedge venue whatever the journal says is uncovered',
    load: async () => (await import('./cli/hedge.ts')).runHedge,
  },
};

/** Every command's name, for tests that hold each one to the CLI's conventions (`--help`). */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

function helpText(): string {
  const lines = Object.values(COMMANDS).map((entry) => `  akira-mm ${entry.summary}`);
  return ['akira-mm: market making on LayerAkira', '', 'usage:', ...lines, '  akira-mm --help | --version   this text; the version of akira-mm', '', '`akira-mm <command> --help` lists the options of a command, each with its unit and default.', ''].join('\n');
}

/** What `akira-mm` takes before a command: help and the version. */
const TOP_LEVEL_OPTIONS = ['--help', '-h', '--version', '-V'];

/** Runs the CLI with these arguments and streams; returns the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...afterFirst] = argv;
  if (first === '--version' || first === '-V') {
    io.stdout.write(`${(await import('./cli/version.ts')).packageVersion()}\n`);
    return 0;
  }
  // `akira-mm help backtest` is `akira-mm backtest --help`.
  const isHelpOfCommand = first === 'help' && afterFirst[0] !== undefined;
  const name = isHelpOfCommand ? afterFirst[0] : first;
  const rest = isHelpOfCommand ? ['--help'] : afterFirst;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(helpText());
    return name === undefined ? EXIT_USAGE : 0;
  }
  const entry = COMMANDS[name];
  if (entry === undefined) {
    const isOption = name.startsWith('-');
    return runReportingUsage('akira-mm', io, () => {
      throw new UnknownNameError(isOption ? 'option' : 'command', name, isOption ? TOP_LEVEL_OPTIONS : COMMAND_NAMES, 'akira-mm --help lists the commands');
    });
  }
  return runReportingUsage(`akira-mm ${name}`, io, async () => (await entry.load())(rest, io));
}

/** How long a finished command may wait for its event loop to drain before it exits anyway. */
const EXIT_GRACE_MS = 250;

const isEntryPoint = process.argv[1] !== undefined && /(?:cli\.ts|akira-mm(?:\.js)?)$/.test(process.argv[1]);
if (isEntryPoint) {
  const io: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
      // A command that is done exits even if a socket to an unreachable venue still hangs open
      // (the daemon's shutdown is bounded by SHUTDOWN_TIMEOUT_MS; the process must be too).
      setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
    },
    (error: unknown) => {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`akira-mm: ${message}\n`);
      process.exitCode = 1;
    },
  );
}
