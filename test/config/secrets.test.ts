import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertPrivateFile, parsePairConfig, values, type KeySpec, type PairConfig } from '../../src/config/index.ts';
import { issuesOf } from './support.ts';
import { resolveSecretEntries } from '../../src/config/secrets.ts';
import type { ConfigIssue } from '../../src/core/index.ts';

const KEY = '0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc';
const pair = { TRADING_ACCOUNT: '0x033c627a3e5213790e246a917770ce23d7e562baa5b4d2917c23b1be6d91961c', BASE: 'ETH', QUOTE: 'USDC' };

function dir(): string {
  return mkdtempSync(join(tmpdir(), 'akira-secrets-'));
}

function file(folder: string, name: string, text: string, mode = 0o600): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}


const keyOf = (config: PairConfig): string | undefined => (config.signer?.kind === 'key' ? config.signer.privateKey.reveal() : undefined);

describe('secrets from files', () => {
  it('reads SIGNER_PRIVATE_KEY_FILE relative to the pair file, without its trailing newline', () => {
    const folder = dir();
    file(folder, 'stark.key', `${KEY}\n`);
    const config = parsePairConfig({ ...pair, SIGNER_PRIVATE_KEY_FILE: 'stark.key' }, { baseDir: folder });
    expect(keyOf(config)).toBe(KEY);
    expect(config.signer).toMatchObject({ kind: 'key', origin: `read from SIGNER_PRIVATE_KEY_FILE=${join(folder, 'stark.key')}` });
  });

  it('refuses a key file group or others may read, naming the file and chmod 600', () => {
    const folder = dir();
    const path = file(folder, 'stark.key', KEY, 0o644);
    const error = issuesOf({ ...pair, SIGNER_PRIVATE_KEY_FILE: path });
    expect(error.message).toContain(`SIGNER_PRIVATE_KEY_FILE="${path}": ${path} (SIGNER_PRIVATE_KEY_FILE) is open to group or others (mode 0644): run chmod 600 ${path}`);
    expect(error.message).toContain('--insecure-permissions');
    expect(error.message).not.toContain(KEY.slice(2));
  });

  it('accepts such a file with --insecure-permissions, with a warning', () => {
    const folder = dir();
    const path = file(folder, 'stark.key', KEY, 0o640);
    const warnings: string[] = [];
    const config = parsePairConfig({ ...pair, SIGNER_PRIVATE_KEY_FILE: path }, { insecurePermissions: true, warn: (message) => warnings.push(message) });
    expect(keyOf(config)).toBe(KEY);
    expect(warnings).toEqual([`warning: ${path} (SIGNER_PRIVATE_KEY_FILE) is open to group or others (mode 0640): run chmod 600 ${path}; accepted because of --insecure-permissions`]);
  });

  it('names a key file it cannot read', () => {
    expect(issuesOf({ ...pair, SIGNER_PRIVATE_KEY_FILE: '/nonexistent/stark.key' }).message).toContain('SIGNER_PRIVATE_KEY_FILE="/nonexistent/stark.key": a readable file');
  });

  it('says where a bad key came from, without showing it', () => {
    const folder = dir();
    file(folder, 'stark.key', 'not a key');
    const error = issuesOf({ ...pair, SIGNER_PRIVATE_KEY_FILE: 'stark.key' }, { baseDir: folder });
    expect(error.message).toContain('SIGNER_PRIVATE_KEY=<redacted>');
    expect(error.message).toContain(`(read from SIGNER_PRIVATE_KEY_FILE=${join(folder, 'stark.key')})`);
  });

  it('gives every secret key a _FILE form: whatever a later issue marks secret (the hedge venue\'s) gets one', () => {
    const folder = dir();
    file(folder, 'hedge.secret', 'abc123\n');
    const specs: KeySpec[] = [{ key: 'HEDGE_API_SECRET', default: undefined, unit: 'text', doc: 'hedge venue API secret', secret: true, optional: true, parse: values.nonEmptyString }];
    const issues: ConfigIssue[] = [];
    const fromFile = resolveSecretEntries({ HEDGE_API_SECRET_FILE: 'hedge.secret' }, specs, { baseDir: folder }, issues);
    expect(fromFile.env).toEqual({ HEDGE_API_SECRET: 'abc123' });
    expect(issues).toEqual([]);
    const environment: Record<string, string | undefined> = { HEDGE_API_SECRET: 'from-env' };
    expect(resolveSecretEntries({}, specs, { environment }, issues).env).toEqual({ HEDGE_API_SECRET: 'from-env' });
    expect(environment).toEqual({});
  });
});

describe('the hedge venue\'s secrets', () => {
  it('come from HEDGE_API_KEY_FILE and HEDGE_API_SECRET_FILE (or the environment), never echoed', () => {
    const folder = dir();
    file(folder, 'binance.key', 'hedgeApiKey0123\n');
    file(folder, 'binance.secret', 'hedge-api-secret-4567\n');
    const environment: Record<string, string | undefined> = {};
    const config = parsePairConfig(
      { ...pair, SIGNER_PRIVATE_KEY: KEY, HEDGE: 'binance:ETHUSDT', HEDGE_API_KEY_FILE: 'binance.key', HEDGE_API_SECRET_FILE: 'binance.secret' },
      { baseDir: folder, environment },
    );
    expect(config.hedge.credentials).toMatchObject({ kind: 'hmac' });
    const credentials = config.hedge.credentials as { apiKey: { reveal(): string }; secretKey: { reveal(): string } };
    expect([credentials.apiKey.reveal(), credentials.secretKey.reveal()]).toEqual(['hedgeApiKey0123', 'hedge-api-secret-4567']);
    expect(JSON.stringify(config)).not.toContain('hedge-api-secret-4567');

    const fromEnvironment: Record<string, string | undefined> = { HEDGE_API_SECRET: 'hedge-api-secret-env-89' };
    const viaEnvironment = parsePairConfig({ ...pair, SIGNER_PRIVATE_KEY: KEY, HEDGE: 'binance:ETHUSDT', HEDGE_API_KEY: 'hedgeApiKey0123' }, { environment: fromEnvironment });
    expect((viaEnvironment.hedge.credentials as { secretKey: { reveal(): string } }).secretKey.reveal()).toBe('hedge-api-secret-env-89');
    expect(fromEnvironment).toEqual({});
  });

  it('refuses a hedge secret file others may read', () => {
    const folder = dir();
    const path = file(folder, 'binance.secret', 'hedge-api-secret-4567', 0o644);
    const error = issuesOf({ ...pair, SIGNER_PRIVATE_KEY: KEY, HEDGE: 'binance:ETHUSDT', HEDGE_API_KEY: 'k0123456', HEDGE_API_SECRET_FILE: path });
    expect(error.message).toContain(`run chmod 600 ${path}`);
    expect(error.message).not.toContain('hedge-api-secret-4567');
  });
});

describe('secrets from the environment', () => {
  it('takes SIGNER_PRIVATE_KEY from the environment when the file has none, and deletes it from the environment', () => {
    const environment: Record<string, string | undefined> = { SIGNER_PRIVATE_KEY: KEY, PATH: '/bin' };
    const config = parsePairConfig(pair, { environment });
    expect(keyOf(config)).toBe(KEY);
    expect(environment).toEqual({ PATH: '/bin' });
  });

  it('reads SIGNER_PRIVATE_KEY_FILE from the environment relative to the working directory, and forgets it too', () => {
    const folder = dir();
    file(folder, 'stark.key', KEY);
    const environment: Record<string, string | undefined> = { SIGNER_PRIVATE_KEY_FILE: 'stark.key' };
    expect(keyOf(parsePairConfig(pair, { environment, cwd: folder }))).toBe(KEY);
    expect(environment).toEqual({});
  });

  it('deletes a secret from the environment even when the configuration then fails', () => {
    const environment: Record<string, string | undefined> = { SIGNER_KEYSTORE_PASSWORD: 'hunter2' };
    issuesOf({ ...pair, SIGNER_PRIVATE_KEY: KEY }, { environment });
    expect(environment).toEqual({});
  });

  it('refuses a secret set both in the file and in the environment, naming both and showing neither', () => {
    const error = issuesOf({ ...pair, SIGNER_PRIVATE_KEY: KEY }, { environment: { SIGNER_PRIVATE_KEY: KEY } });
    expect(error.message).toContain('SIGNER_PRIVATE_KEY=(missing): set in one place only; found SIGNER_PRIVATE_KEY (pair file), SIGNER_PRIVATE_KEY (environment)');
    expect(error.message).not.toContain(KEY.slice(2));
  });

  it('takes SIGNER_KEYSTORE and SIGNER_REMOTE from the environment too, but leaves those paths in it', () => {
    const environment: Record<string, string | undefined> = { SIGNER_REMOTE: 'unix:signer.sock' };
    const config = parsePairConfig(pair, { environment, cwd: '/run/akira' });
    expect(config.signer).toEqual({ kind: 'remote', socketPath: '/run/akira/signer.sock' });
    expect(environment).toEqual({ SIGNER_REMOTE: 'unix:signer.sock' });
  });
});

describe('exactly one signer', () => {
  it('reads a keystore path relative to the pair file, with its password from a file', () => {
    const folder = dir();
    file(folder, 'password', 'correct horse\n');
    const config = parsePairConfig({ ...pair, SIGNER_KEYSTORE: 'keys/eth.json', SIGNER_KEYSTORE_PASSWORD_FILE: 'password' }, { baseDir: folder });
    expect(config.signer?.kind).toBe('keystore');
    if (config.signer?.kind !== 'keystore') return;
    expect(config.signer.path).toBe(join(folder, 'keys/eth.json'));
    expect(config.signer.password?.reveal()).toBe('correct horse');
    expect(JSON.stringify(config)).not.toContain('correct horse');
  });

  it('refuses two signers at once', () => {
    expect(issuesOf({ ...pair, SIGNER_PRIVATE_KEY: KEY, SIGNER_REMOTE: 'unix:/run/s.sock' }).message).toContain('SIGNER_REMOTE=(missing): only one signer: SIGNER_PRIVATE_KEY and SIGNER_REMOTE are both set');
  });

  it('asks for a signer when there is none, unless told none is needed', () => {
    expect(issuesOf(pair).message).toContain('SIGNER_PRIVATE_KEY=(missing): required: set one of SIGNER_PRIVATE_KEY, SIGNER_PRIVATE_KEY_FILE, SIGNER_KEYSTORE, SIGNER_REMOTE');
    expect(parsePairConfig(pair, { requireSigner: false }).signer).toBeUndefined();
  });

  it('refuses a keystore password without a keystore', () => {
    expect(issuesOf({ ...pair, SIGNER_PRIVATE_KEY: KEY, SIGNER_KEYSTORE_PASSWORD: 'x' }).message).toContain('SIGNER_KEYSTORE_PASSWORD=(missing): only used with SIGNER_KEYSTORE');
  });

  it('refuses SIGNER_REMOTE that is not unix:PATH', () => {
    expect(issuesOf({ ...pair, SIGNER_REMOTE: 'tcp://127.0.0.1:9' }).message).toContain('SIGNER_REMOTE="tcp://127.0.0.1:9": unix:PATH');
  });
});

describe('WITHDRAW_ALLOWED_RECEIVERS', () => {
  it('is empty by default and takes addresses separated by commas', () => {
    expect(parsePairConfig({ ...pair, SIGNER_PRIVATE_KEY: KEY }).withdrawAllowedReceivers).toEqual([]);
    expect(parsePairConfig({ ...pair, SIGNER_PRIVATE_KEY: KEY, WITHDRAW_ALLOWED_RECEIVERS: '0xABC, 0x123' }).withdrawAllowedReceivers).toEqual(['0xabc', '0x123']);
    expect(issuesOf({ ...pair, SIGNER_PRIVATE_KEY: KEY, WITHDRAW_ALLOWED_RECEIVERS: '0xabc,bob' }).message).toContain('("bob" is not one)');
  });
});

describe('assertPrivateFile', () => {
  it('accepts 0600 and 0400, refuses any group or other bit', () => {
    const folder = dir();
    for (const mode of [0o600, 0o400]) expect(() => assertPrivateFile(file(folder, `ok-${mode}`, 'x', mode), 'key')).not.toThrow();
    for (const mode of [0o640, 0o604, 0o620, 0o602, 0o660]) expect(() => assertPrivateFile(file(folder, `bad-${mode}`, 'x', mode), 'key')).toThrow(/chmod 600/);
  });
});

describe('files read for something other than signing', () => {
  it('open no secret file and need no signer (a backtest, the signer\'s policy files)', () => {
    const config = parsePairConfig({ ...pair, SIGNER_KEYSTORE: 'eth.json', SIGNER_KEYSTORE_PASSWORD_FILE: '/nonexistent/password' }, { requireSigner: false });
    expect(config.signer).toMatchObject({ kind: 'keystore', password: undefined });
    expect(parsePairConfig({ ...pair, SIGNER_PRIVATE_KEY: 'not even a key' }, { requireSigner: false }).signer).toBeUndefined();
  });
});
