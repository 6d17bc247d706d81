/**
 * `akira-mm run --env FILE [--metrics-host H] [--journal FILE] [--state-dir DIR]`: one pair, live, against the
 * venue the file names (LayerAkira, or a running `akira-mm sim`). SIGINT/SIGTERM cancel every
 * order and wait for the venue to confirm before exiting 0.
 */
import { resolve } from 'node:path';
import { parseFlags, type CommandHelp } from './args.ts';
import { UsageError, type CommandRunner } from './io.ts';
import { INSECURE_PERMISSIONS_FLAG, pairFileOptions } from './file-permissions.ts';

const USAGE = 'akira-mm run --env FILE [--metrics-host HOST] [--journal FILE] [--state-dir DIR] [--insecure-permissions]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary: 'Market-makes one pair live against the venue its env file names (LayerAkira, or a running `akira-mm sim`). SIGINT/SIGTERM cancel every order and wait for the venue to confirm before exiting 0.',
};

export const RUN_OPTIONS = {
  env: { type: 'string', value: 'FILE', required: true, doc: "the pair's env file (every key: config/example.env)" },
  'metrics-host': { type: 'string', value: 'HOST', default: "the file's METRICS_HOST (127.0.0.1)", doc: 'interface for /metrics and /health (0.0.0.0 in a container)' },
  journal: { type: 'string', value: 'FILE', default: '<state dir>/<venue>/<account>.journal', doc: "crash journal of orders in flight, one per venue and account (a journal of another venue or account is refused)" },
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
  if (values.env === undefined) throw new UsageError(`--env FILE is required\nusage: ${USAGE}`);
  // Loaded after the flags: `--help` and usage errors do not pay for the engine and the client.
  const [{ startLiveRun }, { loadPairFile }] = await Promise.all([import('./live.ts'), import('./pair-config.ts')]);
  const fileOptions = pairFileOptions(io, values);
  const config = loadPairFile(resolve(io.cwd, values.env), {}, fileOptions);
  const run = await startLiveRun({
    config,
    io,
    permissions: fileOptions,
    ...(values['metrics-host'] === undefined ? {} : { metricsHost: values['metrics-host'] }),
    ...(values.journal === undefined ? {} : { journalPath: resolve(io.cwd, values.journal) }),
    ...(values['state-dir'] === undefined ? {} : { stateDir: resolve(io.cwd, values['state-dir']) }),
  });
  const code = await run.daemon.done;
  run.logger.flush();
  return code;
};
