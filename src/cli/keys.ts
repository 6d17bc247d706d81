/** `akira-mm keys new`: prints a fresh Stark-curve key pair (private key, stark key, full public key). */
import { randomBytes } from 'node:crypto';
import { HelpRequest, UsageError, type CommandRunner } from './io.ts';
import { parseFlags, subcommandsHelp } from './args.ts';
import { generatePrivateKey, describeKeyPair } from '../exchange/signer/index.ts';

export const runKeys: CommandRunner = async (args, io) => {
  const summary = 'print a fresh Stark-curve key pair (private key, stark key, full public key) as JSON';
  if (args[0] === '--help' || args[0] === '-h') throw new HelpRequest(subcommandsHelp('keys', [{ name: 'new', usage: 'akira-mm keys new', summary }]));
  if (args[0] !== 'new') throw new UsageError('usage: akira-mm keys new');
  const { positionals } = parseFlags(args.slice(1), {}, { usage: 'akira-mm keys new', summary });
  if (positionals.length > 0) throw new UsageError('usage: akira-mm keys new');
  const privateKey = generatePrivateKey(randomBytes);
  const pair = describeKeyPair(privateKey);
  io.stdout.write(
    JSON.stringify({ privateKey: pair.privateKey, publicKey: pair.publicKey, fullPublicKey: pair.fullPublicKey }, null, 2) + '\n',
  );
  return 0;
};
