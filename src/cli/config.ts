/**
 * `akira-mm config example` prints a documented env file with every key;
 * `akira-mm config check --env FILE` validates a pair file and prints every problem at once.
 */
import { parseFlags, selectSubcommand } from './args.ts';
import { UsageError, type CommandRunner } from './io.ts';
import { INSECURE_PERMISSIONS_FLAG, pairFileOptions } from './file-permissions.ts';
import { exampleEnv, loadPairFile } from './pair-config.ts';
import { readKeystoreFile } from './signer-setup.ts';

const USAGE = 'akira-mm config example | akira-mm config check --env FILE [--insecure-permissions]';

const SUBCOMMANDS = [
  { name: 'example', usage: 'akira-mm config example', summary: 'print a documented env file with every key, its default and unit' },
  { name: 'check', usage: 'akira-mm config check --env FILE [--insecure-permissions]', summary: 'validate a pair file (and that its keystore is there and private) and print every problem at once' },
];

const CHECK_OPTIONS = { env: { type: 'string', value: 'FILE', required: true, doc: 'the pair file to validate' }, ...INSECURE_PERMISSIONS_FLAG } as const;

export const runConfig: CommandRunner = async (args, io) => {
  const { subcommand, rest } = selectSubcommand('config', args, SUBCOMMANDS);
  if (subcommand.name === 'example') {
    parseFlags(rest, {}, { usage: 'akira-mm config example', summary: SUBCOMMANDS[0]?.summary ?? '' });
    io.stdout.write(exampleEnv());
    return 0;
  }
  const { values } = parseFlags(rest, CHECK_OPTIONS, { usage: 'akira-mm config check --env FILE', summary: SUBCOMMANDS[1]?.summary ?? '' });
  if (values.env === undefined) throw new UsageError(`--env FILE is required\nusage: ${USAGE}`);
  const options = pairFileOptions(io, values);
  const config = loadPairFile(values.env, {}, options);
  // The keystore must be there and private; its password is only needed by `run`.
  if (config.signer?.kind === 'keystore') readKeystoreFile(config.signer.path, options);
  io.stdout.write(`${values.env}: valid (${config.base}/${config.quote} on ${config.chain}, strategy ${config.strategy})\n`);
  return 0;
};
