/**
 * `akira-mm run --env FILE [--metrics-host H] [--journal FILE]`: one pair, live, against the
 * venue the file names (LayerAkira, or a running `akira-mm sim`). SIGINT/SIGTERM cancel every
 * order and wait for the venue to confirm before exiting 0.
 */
import { resolve } from 'node:path';
import { parseFlags } from './args.ts';
import { UsageError, type CommandRunner } from './io.ts';
import { startLiveRun } from './live.ts';
import { INSECURE_PERMISSIONS_FLAG, loadPairFile, pairFileOptions } from './pair-config.ts';

const USAGE = 'akira-mm run --env FILE [--metrics-host HOST] [--journal FILE] [--insecure-permissions]';

export const runRun: CommandRunner = async (args, io) => {
  const { values, positionals } = parseFlags(
    args,
    { env: { type: 'string' }, 'metrics-host': { type: 'string' }, journal: { type: 'string' }, ...INSECURE_PERMISSIONS_FLAG },
    USAGE,
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${USAGE}`);
  if (values.env === undefined) throw new UsageError(`--env FILE is required\nusage: ${USAGE}`);
  const fileOptions = pairFileOptions(io, values);
  const config = loadPairFile(resolve(io.cwd, values.env), {}, fileOptions);
  const run = await startLiveRun({
    config,
    io,
    permissions: fileOptions,
    ...(values['metrics-host'] === undefined ? {} : { metricsHost: values['metrics-host'] }),
    ...(values.journal === undefined ? {} : { journalPath: resolve(io.cwd, values.journal) }),
  });
  const code = await run.daemon.done;
  run.logger.flush();
  return code;
};
