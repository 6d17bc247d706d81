/**
 * `akira-mm config example` prints a documented env file with every key;
 * `akira-mm config check --env FILE` validates a pair file and prints every problem at once.
 */
import { parseFlags } from './args.ts';
import { UsageError, type CommandRunner } from './io.ts';
import { exampleEnv, loadPairFile } from './pair-config.ts';

const USAGE = 'akira-mm config example | akira-mm config check --env FILE';

export const runConfig: CommandRunner = async (args, io) => {
  const [sub, ...rest] = args;
  if (sub === 'example') {
    io.stdout.write(exampleEnv());
    return 0;
  }
  if (sub === 'check') {
    const { values } = parseFlags(rest, { env: { type: 'string' } }, USAGE);
    if (values.env === undefined) throw new UsageError(`--env FILE is required\nusage: ${USAGE}`);
    const config = loadPairFile(values.env);
    io.stdout.write(`${values.env}: valid (${config.base}/${config.quote} on ${config.chain}, strategy ${config.strategy})\n`);
    return 0;
  }
  throw new UsageError(`usage: ${USAGE}`);
};
