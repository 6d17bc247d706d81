import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Secret, createLogger } from '../../src/core/index.ts';

const KEY = '0x1234567890abcdef1234567890abcdef';

describe('Secret', () => {
  it('prints as <redacted> through every printing path, and reveals only on request', () => {
    const secret = new Secret(KEY);
    expect(String(secret)).toBe('<redacted>');
    expect(`${secret}`).toBe('<redacted>');
    expect(JSON.stringify({ secret })).toBe('{"secret":"<redacted>"}');
    expect(inspect({ nested: { secret } })).not.toContain(KEY);
    expect(secret.reveal()).toBe(KEY);
  });
});

describe('createLogger', () => {
  it('redacts private keys and JWTs wherever they sit in a logged object', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ destination });
    logger.info({ privateKey: KEY, config: { SIGNER_PRIVATE_KEY: KEY, signerPrivateKey: KEY }, jwt: 'eyJhbGci.x.y', headers: { authorization: 'eyJhbGci.x.y' } }, 'hello');
    logger.info({ password: KEY, config: { SIGNER_KEYSTORE_PASSWORD: KEY } }, 'keystore');
    logger.info({ wrapped: new Secret(KEY) }, 'secret object');
    await new Promise((resolve) => setImmediate(resolve));
    const text = lines.join('');
    expect(text).toContain('hello');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('eyJhbGci');
    expect(text.match(/<redacted>/g)?.length).toBeGreaterThanOrEqual(8);
  });
});
