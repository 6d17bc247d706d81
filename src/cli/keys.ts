/** `akira-mm keys new`: prints a fresh Stark-curve key pair (private key, stark key, full public key). */
import { randomBytes } from 'node:crypto';
import { UsageError, type CommandRunner } from './io.ts';
import { generatePrivateKey, describeKeyPair } from '../exchange/signer/index.ts';

export const runKeys: CommandRunner = async (args, io) => {
  if (args[0] !== 'new' || args.length !== 1) throw new UsageError('usage: akira-mm keys new');
  const privateKey = generatePrivateKey(randomBytes);
  const pair = describeKeyPair(privateKey);
  io.stdout.write(
    JSON.stringify({ privateKey: pair.privateKey, publicKey: pair.publicKey, fullPublicKey: pair.fullPublicKey }, null, 2) + '\n',
  );
  return 0;
};
