/**
 * Runs `akira-mm account …` in this process as the owner of one of a sim's wallets (its key in
 * ACCOUNT_PRIVATE_KEY, as a user would give it), capturing what it prints.
 */
import { Readable } from 'node:stream';
import { main } from '../../src/cli.ts';
import type { CliIo } from '../../src/cli/io.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import type { SimHandle } from '../../src/sim/index.ts';

export async function account(venue: SimHandle, index: number, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from(['']),
    env: { ACCOUNT_PRIVATE_KEY: feltToHex(venue.wallets[index]!.ownerPrivateKey) },
    cwd: process.cwd(),
  };
  const code = await main(['account', ...args], io);
  return { code, stdout, stderr };
}
