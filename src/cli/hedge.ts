/**
 * `akira-mm hedge flatten --env FILE [--journal FILE] [--state-dir DIR] [--timeout S]`: flattens the net position on
 * the hedge venue. The pair's hedge journal says what was filled and what was hedged; hedges whose
 * outcome the journal does not know are queried by their client id (never sent again); whatever
 * is uncovered is then hedged with market (or IOC) orders, as the daemon would. Run it with the
 * daemon stopped (the journal is locked while a daemon holds it). Prints one JSON line; exits 0
 * when nothing hedgeable is left uncovered (dust below the venue's minimum may remain, and is
 * shown).
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { integerFlag, parseFlags, selectSubcommand, type CommandHelp } from './args.ts';
import { UsageError, type CommandRunner } from './io.ts';

const SUBCOMMANDS = [{ name: 'flatten', usage: 'akira-mm hedge flatten --env FILE [--journal FILE] [--state-dir DIR] [--timeout S]', summary: 'hedge whatever the journal says is uncovered, settling lost hedges by query first' }];

const FLATTEN_HELP: CommandHelp = {
  usage: SUBCOMMANDS[0]?.usage ?? '',
  summary:
    "Flattens the net position on the hedge venue (HEDGE): the pair's hedge journal says what was filled and hedged; hedges with no known outcome are queried by client id, then whatever is uncovered is hedged with market orders. Stop the daemon first (it holds the journal). Prints one JSON line; exit 0 when nothing hedgeable is left.",
};

const FLATTEN_OPTIONS = {
  env: { type: 'string', value: 'FILE', required: true, doc: "the pair's env file (HEDGE and its keys)" },
  journal: { type: 'string', value: 'FILE', default: '<state dir>/<venue>/<account>.journal (the hedge journal is FILE.<BASE>-<QUOTE>.hedge)', doc: "the pair's order journal, as `run --journal` names it" },
  'state-dir': { type: 'string', value: 'DIR', default: 'STATE_DIR, else $XDG_STATE_HOME/akira-mm, else ~/.local/state/akira-mm', doc: 'the state directory `run --state-dir` uses' },
  timeout: { type: 'string', value: 'S', unit: 's', default: 60, doc: 'give up waiting for the hedges after this long' },
} as const;

export const runHedge: CommandRunner = async (args, io) => {
  const { rest } = selectSubcommand('hedge', args, SUBCOMMANDS);
  const { values, positionals } = parseFlags(rest, FLATTEN_OPTIONS, FLATTEN_HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${FLATTEN_HELP.usage}`);
  if (values.env === undefined) throw new UsageError(`--env FILE is required\nusage: ${FLATTEN_HELP.usage}`);
  const timeoutS = integerFlag('timeout', values.timeout, 60, 1, 3_600);
  const [{ loadPairFile }, { hedgeJournalPath, orderJournalPath }, { createHedger }, { LiveClock, createLogger, createRng, hasErrorCode }] = await Promise.all([
    import('./pair-config.ts'),
    import('./state-dir.ts'),
    import('./hedge-wiring.ts'),
    import('../core/index.ts'),
  ]);
  const config = loadPairFile(resolve(io.cwd, values.env));
  if (config.hedge.market === undefined) throw new UsageError(`${values.env}: HEDGE is off; there is no hedge venue to flatten on`);
  const logger = createLogger({ level: config.logLevel, base: { pair: `${config.base}/${config.quote}`, command: 'hedge flatten' } });
  const clock = new LiveClock();
  let wiring;
  try {
    wiring = createHedger(config, { clock, rng: createRng(randomBytes(4).readUInt32LE(0)), logger, journalPath: hedgeJournalPath(
        orderJournalPath(config, {
          journalPath: values.journal === undefined ? undefined : resolve(io.cwd, values.journal),
          stateDir: values['state-dir'] === undefined ? undefined : resolve(io.cwd, values['state-dir']),
          env: io.env,
          cwd: io.cwd,
        }),
        config.base,
        config.quote,
      ),
    });
  } catch (error) {
    if (hasErrorCode(error, 'HEDGE_JOURNAL_LOCKED')) throw new UsageError(error.message);
    throw error;
  }
  if (wiring === undefined) throw new UsageError(`${values.env}: HEDGE needs its API key`);
  const { hedger } = wiring;
  let haltReason: string | undefined;
  hedger.attach({ requote: () => undefined, halt: (message) => (haltReason = message) });
  try {
    await hedger.start();
    await hedger.settle(timeoutS * 1_000);
    const status = hedger.status();
    const flat = haltReason === undefined && Math.abs(status.uncoveredBase - status.dustBase) < 1e-12;
    io.stdout.write(
      `${JSON.stringify({ market: status.market, flat, uncovered_base: status.uncoveredBase, dust_base: status.dustBase, hedges_sent: status.hedgesSent, hedges_failed: status.hedgesFailed, hedge_position_base: status.hedgePositionBase, ...(haltReason === undefined ? {} : { reason: haltReason }) })}\n`,
    );
    return flat ? 0 : 1;
  } finally {
    await hedger.stop();
    logger.flush();
  }
};
