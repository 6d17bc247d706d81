/**
 * `akira-mm config example` prints a documented env file with every key;
 * `akira-mm config check --env FILE` validates a pair file and prints every problem at once.
 */
import { parseFlags } from './args.ts';
import { UsageError, type CommandRunner } from './io.ts';
import { INSECURE_PERMISSIONS_FLAG, exampleEnv, loadPairFile, pairFileOptions } from './pair-config.ts';
import { readKeystoreFile } from './signer-setup.ts';

const USAGE = 'akira-mm config example | akira-mm config check --env FILE [--insecure-permissions]';

export const runConfig: CommandRunner = async (args, io) => {
  const [sub, ...rest] = args;
  if (sub === 'example') {
    io.stdout.write(exampleEnv());
    return 0;
  }
  if (sub === 'check') {
    const { values } = parseFlags(rest, { env: { type: 'string' }, ...INSECURE_PERMISSIONS_FLAG }, USAGE);
    if (values.env === undefined) throw new UsageError(`--env FILE is required\nusage: ${USAGE}`);
    const options = pairFileOptions(io, values);
    const config = loadPairFile(values.env, {}, options);
    // The keystore must be there and private; its password is only needed by `run`.
    if (config.signer?.kind === 'keystore') readKeystoreFile(config.signer.path, options);
    io.stdout.write(`${values.env}: valid (${config.base}/${config.quote} on ${config.chain}, strategy ${config.strategy})\n`);
    return 0;
  }
  throw new UsageError(`usage: ${USAGE}`);
};
