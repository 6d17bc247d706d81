/**
 * `akira-mm run --env FILE [--env FILE]… | --env-dir DIR [--metrics-host H] [--journal FILE] [--state-dir DIR]`:
 * live, against the venue the files name (LayerAkira, or a running `akira-mm sim`). Each file is a
 * pair of ONE account served by one process (one login, one WebSocket, one signer, one journal;
 * budgets and the drift check on the account); one file is an account of one pair. Files that
 * disagree on the account are refused, naming the keys. SIGINT/SIGTERM cancel every order and
 * wait for the venue to confirm before exiting 0.
 */
import { resolve } from 'node:path';
import { parseFlags, type CommandHelp } from './args.ts';
import { UsageError, type CommandRunner } from './io.ts';
import { INSECURE_PERMISSIONS_FLAG, pairFileOptions } from './file-permissions.ts';

const USAGE = 'akira-mm run (--env FILE [--env FILE]… | --env-dir DIR) [--metrics-host HOST] [--journal FILE [--keep-journal]] [--state-dir DIR] [--insecure-permissions]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary:
    'Market-makes live against the venue the env files name (LayerAkira, or a running `akira-mm sim`): one file per pair; several files (or --env-dir) quote several pairs of one account in one process, with one login, one WebSocket, one signer, per-pair budgets and the drift check on the account. SIGINT/SIGTERM cancel every order and wait for the venue to confirm before exiting 0.',
};

export const RUN_OPTIONS = {
  env: {
    type: 'string',
    multiple: true,
    value: 'FILE',
    required: 'required unless --env-dir',
    doc: "a pair's env file (every key: config/example.env); repeat for several pairs of one account (the files must agree on venue, account, signer, contracts, state dir, metrics port and request budget)",
  },
  'env-dir': { type: 'string', value: 'DIR', doc: 'every *.env file in DIR (example.env aside), as if each were given with --env' },
  'metrics-host': { type: 'string', value: 'HOST', default: "the file's METRICS_HOST (127.0.0.1)", doc: 'interface for /metrics, /health and the dashboard (0.0.0.0 in a container)' },
  journal: { type: 'string', value: 'FILE', default: '<state dir>/<venue>/<account>.journal', doc: "crash journal of orders in flight, one per venue and account (a journal of another venue or account is refused)" },
  'keep-journal': {
    type: 'boolean',
    doc: "keep the journal's whole history (never compacted, so it grows with every order): the session `akira-mm parity --journal` compares with `akira-mm record`'s recording of the same span. Off: compacted to the open orders",
  },
  'state-dir': {
    type: 'string',
    value: 'DIR',
    default: 'STATE_DIR, else $XDG_STATE_HOME/akira-mm, else ~/.local/state/akira-mm',
    doc: 'where the journal and the account lock live (a second process for an account served from here fails at once)',
  },
  ...INSECURE_PERMISSIONS_FLAG,
} as const;

export const runRun: CommandRunner = async (args, io) => {
  const { values, positionals } = parseFlags(args, RUN_OPTIONS, HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${USAGE}`);
  // Loaded after the flags: `--help` and usage errors do not pay for the engine and the client.
  const [{ startLiveRun }, { loadPairFile }, { envFilesIn }] = await Promise.all([import('./live.ts'), import('./pair-config.ts'), import('./account-files.ts')]);
  const paths = [...(values.env ?? []).map((path) => resolve(io.cwd, path)), ...(values['env-dir'] === undefined ? [] : envFilesIn(resolve(io.cwd, values['env-dir'])))];
  const fileOptions = pairFileOptions(io, values);
  const [config, ...otherConfigs] = paths.map((path) => loadPairFile(path, {}, fileOptions));
  if (config === undefined) throw new UsageError(`--env FILE (or --env-dir DIR) is required\nusage: ${USAGE}`);
  const run = await startLiveRun({
    config,
    otherConfigs,
    paths,
    io,
    permissions: fileOptions,
    // `akira-mm ctl reload` reads each file again exactly as it was read here.
    reloadConfig: (index) => loadPairFile(paths[index] as string, {}, fileOptions),
    ...(values['metrics-host'] === undefined ? {} : { metricsHost: values['metrics-host'] }),
    ...(values.journal === undefined ? {} : { journalPath: resolve(io.cwd, values.journal) }),
    ...(values['keep-journal'] === true ? { keepJournalHistory: true } : {}),
    ...(values['state-dir'] === undefined ? {} : { stateDir: resolve(io.cwd, values['state-dir']) }),
  });
  const code = await run.daemon.done;
  run.logger.flush();
  return code;
};
