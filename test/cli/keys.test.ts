import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { ec } from 'starknet';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import type { CliIo } from '../../src/cli/io.ts';
import { decryptStarkKeystore, encryptStarkKeystore } from '../../src/exchange/signer/index.ts';
import { runCli } from './run-cli.ts';

const KEY = '0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc';
const FAST = ['--scrypt-n', '1024'];

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'akira-keys-'));
}

function passwordFile(dir: string, password: string, mode = 0o600): string {
  const path = join(dir, 'password');
  writeFileSync(path, `${password}\n`);
  chmodSync(path, mode);
  return path;
}

/** Runs the CLI with a fake terminal on stdin that "types" `keystrokes` once the prompt is shown. */
async function runOnTerminal(args: string[], keystrokes: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const input = Object.assign(new PassThrough(), { isTTY: true, rawModes: [] as boolean[], setRawMode(mode: boolean) { this.rawModes.push(mode); return this; } });
  let stdout = '';
  let stderr = '';
  const pending = [...keystrokes];
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: {
      write: (text: string) => {
        stderr += text;
        // A prompt was shown: type the next answer.
        if (text.endsWith(': ') && pending.length > 0) setImmediate(() => input.write(pending.shift()!));
      },
    },
    stdin: input,
    env: {},
    cwd: process.cwd(),
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

describe('akira-mm keys new', () => {
  it('prints a fresh key pair whose public key starknet.js derives from the private key', async () => {
    const { code, stdout } = await runCli(['keys', 'new']);
    expect(code).toBe(0);
    const pair = JSON.parse(stdout) as { privateKey: string; publicKey: string; fullPublicKey: string };
    expect(BigInt(pair.publicKey)).toBe(BigInt(ec.starkCurve.getStarkKey(pair.privateKey)));
    const second = JSON.parse((await runCli(['keys', 'new'])).stdout) as { privateKey: string };
    expect(second.privateKey).not.toBe(pair.privateKey);
  });

  it('exits 2 on anything but a known subcommand', async () => {
    expect((await runCli(['keys', 'old'])).code).toBe(2);
  });

  it('--help lists the sub-commands, and each one\'s --help every option with its default', async () => {
    const { code, stdout } = await runCli(['keys', '--help']);
    expect(code).toBe(0);
    for (const sub of ['keys new', 'keys import', 'keys inspect']) expect(stdout).toContain(sub);
    const help = await runCli(['keys', 'new', '--help']);
    expect(help.code).toBe(0);
    for (const text of ['--keystore FILE', '--password-file FILE', '--scrypt-n N', 'default 262144', '--insecure-permissions']) expect(help.stdout).toContain(text);
  });

  it('--keystore writes an encrypted keystore (mode 0600) and prints only the public key', async () => {
    const dir = folder();
    const keystore = join(dir, 'eth.json');
    const { code, stdout } = await runCli(['keys', 'new', '--keystore', keystore, '--password-file', passwordFile(dir, 'hunter2'), ...FAST]);
    expect(code).toBe(0);
    expect(statSync(keystore).mode & 0o777).toBe(0o600);
    const printed = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(printed)).toEqual(['keystore', 'publicKey', 'fullPublicKey']);
    const key = await decryptStarkKeystore(readFileSync(keystore, 'utf8'), 'hunter2');
    expect(BigInt(printed['publicKey']!)).toBe(BigInt(ec.starkCurve.getStarkKey(`0x${key.toString(16)}`)));
  });

  it('never overwrites a keystore', async () => {
    const dir = folder();
    const keystore = join(dir, 'eth.json');
    writeFileSync(keystore, 'precious');
    const { code, stderr } = await runCli(['keys', 'new', '--keystore', keystore, '--password-file', passwordFile(dir, 'pw'), ...FAST]);
    expect(code).toBe(2);
    expect(stderr).toContain('a keystore is never overwritten');
    expect(readFileSync(keystore, 'utf8')).toBe('precious');
  });

  it('asks for the password twice on a terminal, echoing nothing', async () => {
    const dir = folder();
    const keystore = join(dir, 'eth.json');
    const { code, stderr } = await runOnTerminal(['keys', 'new', '--keystore', keystore, ...FAST], ['s3cret-pass\r', 's3cret-pass\r']);
    expect(code).toBe(0);
    expect(stderr).toBe('New keystore password: \nRepeat the password: \n');
    await decryptStarkKeystore(readFileSync(keystore, 'utf8'), 's3cret-pass');
  });

  it('writes nothing when the two passwords differ', async () => {
    const dir = folder();
    const { code, stderr } = await runOnTerminal(['keys', 'new', '--keystore', join(dir, 'eth.json'), ...FAST], ['one\r', 'two\r']);
    expect(code).toBe(2);
    expect(stderr).toContain('the passwords differ; nothing written');
  });

  it('without a terminal, asks for --password-file', async () => {
    const { code, stderr } = await runCli(['keys', 'new', '--keystore', join(folder(), 'eth.json'), ...FAST]);
    expect(code).toBe(2);
    expect(stderr).toContain('no terminal to ask the keystore password on: pass --password-file FILE');
  });

  it('refuses a password file others may read, unless --insecure-permissions', async () => {
    const dir = folder();
    const password = passwordFile(dir, 'pw', 0o644);
    const refused = await runCli(['keys', 'new', '--keystore', join(dir, 'a.json'), '--password-file', password, ...FAST]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${password} (password file) is open to group or others (mode 0644): run chmod 600 ${password}`);
    const accepted = await runCli(['keys', 'new', '--keystore', join(dir, 'b.json'), '--password-file', password, '--insecure-permissions', ...FAST]);
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toContain('accepted because of --insecure-permissions');
  });
});

describe('akira-mm keys import', () => {
  it('encrypts a key piped on stdin (never on the command line) and prints only its public key', async () => {
    const dir = folder();
    const keystore = join(dir, 'eth.json');
    const { code, stdout, stderr } = await runCli(['keys', 'import', '--keystore', keystore, '--password-file', passwordFile(dir, 'pw'), ...FAST], `${KEY}\n`);
    expect(code).toBe(0);
    expect(await decryptStarkKeystore(readFileSync(keystore, 'utf8'), 'pw')).toBe(BigInt(KEY));
    expect(stdout + stderr).not.toContain(KEY.slice(2));
    expect(BigInt((JSON.parse(stdout) as { publicKey: string }).publicKey)).toBe(BigInt(ec.starkCurve.getStarkKey(KEY)));
  });

  it('reads the key from a prompt without echo on a terminal', async () => {
    const dir = folder();
    const keystore = join(dir, 'eth.json');
    const { code, stderr } = await runOnTerminal(['keys', 'import', '--keystore', keystore, ...FAST], [`${KEY}\r`, 'pw\r', 'pw\r']);
    expect(code).toBe(0);
    expect(stderr).not.toContain(KEY.slice(2));
    expect(await decryptStarkKeystore(readFileSync(keystore, 'utf8'), 'pw')).toBe(BigInt(KEY));
  });

  it('refuses something that is not a key, without showing it', async () => {
    const dir = folder();
    const { code, stderr } = await runCli(['keys', 'import', '--keystore', join(dir, 'eth.json'), '--password-file', passwordFile(dir, 'pw')], 'my-secret-words\n');
    expect(code).toBe(2);
    expect(stderr).toContain('the private key <redacted> is not');
    expect(stderr).not.toContain('my-secret-words');
  });
});

describe('akira-mm keys inspect', () => {
  async function keystoreWith(password: string): Promise<{ dir: string; keystore: string }> {
    const dir = folder();
    const keystore = join(dir, 'eth.json');
    writeFileSync(keystore, await encryptStarkKeystore(BigInt(KEY), password, { scrypt: { n: 1024, r: 8, p: 1 }, randomBytes: (n) => new Uint8Array(n).fill(7) }), { mode: 0o600 });
    return { dir, keystore };
  }

  it('prints the public key of a keystore', async () => {
    const { dir, keystore } = await keystoreWith('pw');
    const { code, stdout } = await runCli(['keys', 'inspect', '--keystore', keystore, '--password-file', passwordFile(dir, 'pw')]);
    expect(code).toBe(0);
    expect(BigInt((JSON.parse(stdout) as { publicKey: string }).publicKey)).toBe(BigInt(ec.starkCurve.getStarkKey(KEY)));
  });

  it('says "wrong password" in one line and nothing more', async () => {
    const { dir, keystore } = await keystoreWith('right');
    const { code, stdout, stderr } = await runCli(['keys', 'inspect', '--keystore', keystore, '--password-file', passwordFile(dir, 'wrong')]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`akira-mm keys: keystore ${keystore}: wrong password (or the keystore was altered: its MAC does not match)\n`);
  });

  it('says what is wrong with a corrupt keystore in one line', async () => {
    const { dir, keystore } = await keystoreWith('pw');
    writeFileSync(keystore, readFileSync(keystore, 'utf8').replace('"aes-128-ctr"', '"rot13"'));
    const { code, stderr } = await runCli(['keys', 'inspect', '--keystore', keystore, '--password-file', passwordFile(dir, 'pw')]);
    expect(code).toBe(2);
    expect(stderr).toBe(`akira-mm keys: keystore ${keystore}: not a Web3 Secret Storage v3 keystore we can read: crypto.cipher: Invalid input: expected "aes-128-ctr"\n`);
  });
});
