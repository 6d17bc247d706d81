/**
 * The remote signer over a real Unix socket: `SignerServer` holds the key and the policy,
 * `RemoteSigner` is the daemon's side. Timers run on a manual clock (nothing times out unless a
 * test moves it).
 */
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, Secret, createSilentLogger, getChain, getToken, hasErrorCode } from '../../../src/core/index.ts';
import {
  RemoteSigner,
  Signer,
  SignerServer,
  SigningAudit,
  SigningPolicy,
  SigningPool,
  verifySignature,
  type SigningPolicySpec,
} from '../../../src/exchange/signer/index.ts';
import { parseOrderBody, parseWithdrawBody, readGasFee } from '../../../src/exchange/wire/requests.ts';
import { FieldReader } from '../../../src/exchange/wire/fields.ts';
import { gasFeeBody, MAINNET, MAKER, orderBody } from './fixtures.ts';

const KEY = new Secret('0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc');
const OTHER_KEY = new Secret('0x1234');
const ACCOUNT = BigInt(MAKER);
const SPEC: SigningPolicySpec = { chain: 'mainnet', account: ACCOUNT, pairs: [{ base: 'ETH', quote: 'USDC', maxOrderNotionalUnits: 1_000_000_000n }], withdrawReceivers: [] };
const order = (overrides: Record<string, unknown> = {}) => parseOrderBody(orderBody(overrides), MAINNET);

const servers: SignerServer[] = [];
const clients: RemoteSigner[] = [];
const raw: Server[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.stop();
  for (const server of raw.splice(0)) server.close();
});

function socketPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'akira-signer-')), 'signer.sock');
}

async function serve(path: string, options: { key?: Secret; pool?: boolean; socketMode?: 0o600 | 0o660 } = {}) {
  const audit = new SigningAudit();
  const policy = new SigningPolicy(SPEC, audit);
  const signerOptions = { privateKey: options.key ?? KEY, account: ACCOUNT, chain: MAINNET, policy };
  const pool = options.pool === true ? new SigningPool({ ...signerOptions, size: 1 }) : undefined;
  const server = await SignerServer.start({
    socketPath: path,
    signer: pool?.signer ?? new Signer(signerOptions),
    ...(pool === undefined ? {} : { pool }),
    audit,
    logger: createSilentLogger(),
    ...(options.socketMode === undefined ? {} : { socketMode: options.socketMode }),
  });
  servers.push(server);
  return { server, audit, pool };
}

async function connect(path: string, overrides: { account?: bigint; chain?: 'mainnet' | 'sepolia'; clock?: ManualClock } = {}) {
  const audit = new SigningAudit();
  const client = await RemoteSigner.connect({
    socketPath: path,
    chain: getChain(overrides.chain ?? 'mainnet'),
    account: overrides.account ?? ACCOUNT,
    clock: overrides.clock ?? new ManualClock(0),
    logger: createSilentLogger(),
    audit,
    timeoutMs: 1_000,
  });
  clients.push(client);
  return { client, audit };
}

/** Sends raw lines and returns the first answer line. */
function rawExchange(path: string, text: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.includes('\n')) {
        socket.destroy();
        resolve(JSON.parse(received.split('\n')[0]!) as Record<string, unknown>);
      }
    });
    socket.on('error', reject);
    socket.write(text);
  });
}

describe('remote signer', () => {
  it('signs an order over the socket exactly as the in-process signer does', async () => {
    const path = socketPath();
    await serve(path);
    const { client } = await connect(path);
    const local = new Signer({ privateKey: KEY, account: ACCOUNT, chain: MAINNET });
    expect(client.starkKey).toBe(local.starkKey);
    const remote = await client.signOrder(order());
    const inProcess = local.signOrder(order());
    expect(remote.hash).toBe(inProcess.hash);
    expect(remote.request.sign).toEqual(inProcess.request.sign);
    expect(verifySignature(remote.hash, remote.request.sign!, client.starkKey)).toBe(true);
  });

  it('signs a pre-signing batch in one request on the signer\'s worker threads, in order', async () => {
    const path = socketPath();
    const { pool } = await serve(path, { pool: true });
    await pool!.ready();
    const { client } = await connect(path);
    const orders = Array.from({ length: 12 }, (_, i) => order({ salt: String(1000 + i), price: String(2990 + i) }));
    const remote = await client.signOrders(orders);
    const local = new Signer({ privateKey: KEY, account: ACCOUNT, chain: MAINNET }).signOrders(orders);
    expect(remote.map((entry) => entry.hash)).toEqual(local.map((entry) => entry.hash));
    expect(remote.map((entry) => entry.request.salt)).toEqual(orders.map((o) => o.salt));
  });

  it('signs the login, cancels, cancel-all and nonce increases; requests in flight share the connection', async () => {
    const path = socketPath();
    await serve(path);
    const { client } = await connect(path);
    const gasFee = readGasFee(FieldReader.root(gasFeeBody()), MAINNET);
    const [login, cancel, cancelAll, nonce] = await Promise.all([
      client.signLogin(77n),
      client.signCancel({ maker: ACCOUNT, orderHash: 5n, salt: 6n, signScheme: 'ecdsa curve' }),
      client.signCancelAll({ maker: ACCOUNT, salt: 7n, base: getToken(MAINNET, 'ETH'), quote: getToken(MAINNET, 'USDC'), toEcosystemBook: true, signScheme: 'ecdsa curve' }),
      client.signIncreaseNonce({ maker: ACCOUNT, newNonce: 3, salt: 8n, gasFee, signScheme: 'ecdsa curve' }),
    ]);
    const local = new Signer({ privateKey: KEY, account: ACCOUNT, chain: MAINNET });
    expect(login.hash).toBe(local.signLogin(77n).hash);
    expect(cancel.hash).toBe(local.signCancel({ maker: ACCOUNT, orderHash: 5n, salt: 6n, signScheme: 'ecdsa curve' }).hash);
    for (const signed of [cancelAll, nonce]) expect(verifySignature(signed.hash, signed.request.sign!, client.starkKey)).toBe(true);
  });

  it('passes the signer\'s refusal on with its kind, counted on both sides', async () => {
    const path = socketPath();
    const { audit: serverAudit } = await serve(path);
    const { client, audit: clientAudit } = await connect(path);
    const withdraw = parseWithdrawBody({ maker: MAKER, token: 'USDC', amount: '10', salt: '1', receiver: '0xbad', gas_fee: gasFeeBody(), sign_scheme: 'ecdsa curve' }, MAINNET);
    await expect(client.signWithdraw(withdraw)).rejects.toMatchObject({ code: 'SIGNER_REFUSED', kind: 'withdraw' });
    await expect(client.signOrder(order({ ticker: ['STRK', 'USDC'] }))).rejects.toMatchObject({ code: 'SIGNER_REFUSED', kind: 'pair' });
    expect(serverAudit.counts().get('withdraw')).toBe(1);
    expect(clientAudit.counts().get('withdraw')).toBe(1);
    expect(clientAudit.counts().get('pair')).toBe(1);
  });

  it('knows the signer\'s policy well enough to skip pre-signing what it would refuse', async () => {
    const path = socketPath();
    await serve(path);
    const { client } = await connect(path);
    expect(client.allows(order())).toBe(true);
    expect(client.allows(order({ price: '3000', qty: { base_qty: '1', quote_qty: '0' } }))).toBe(false);
  });

  it('refuses a client for another chain (kind chain) or another account (kind account)', async () => {
    const path = socketPath();
    const { audit } = await serve(path);
    await expect(connect(path, { chain: 'sepolia' })).rejects.toMatchObject({ code: 'SIGNER_REFUSED', kind: 'chain' });
    await expect(connect(path, { account: ACCOUNT + 1n })).rejects.toMatchObject({ code: 'SIGNER_REFUSED', kind: 'account' });
    expect(audit.counts().get('chain')).toBe(1);
    expect(audit.counts().get('account')).toBe(1);
  });

  it('refuses what it cannot parse (kind request), naming the field, and keeps serving', async () => {
    const path = socketPath();
    const { audit } = await serve(path);
    const notJson = await rawExchange(path, 'sign everything please\n');
    expect(notJson).toMatchObject({ id: null, error: { code: 'SIGNER_REFUSED', kind: 'request' } });
    const badBody = await rawExchange(path, `${JSON.stringify({ id: 9, op: 'order', body: { ...orderBody(), price: 'lots' } })}\n`);
    expect(badBody).toMatchObject({ id: 9, error: { code: 'SIGNER_REFUSED', kind: 'request' } });
    expect(String((badBody['error'] as { message: string }).message)).toContain('price');
    const rawSign = await rawExchange(path, `${JSON.stringify({ id: 10, op: 'sign-hash', hash: '0x1' })}\n`);
    expect(rawSign).toMatchObject({ id: 10, error: { kind: 'request', message: 'unknown request "sign-hash"' } });
    expect(audit.counts().get('request')).toBe(3);
    const { client } = await connect(path);
    await client.signOrder(order());
  });

  it('creates its socket with mode 0600, or 0660 when asked', async () => {
    const path = socketPath();
    await serve(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const shared = socketPath();
    await serve(shared, { socketMode: 0o660 });
    expect(statSync(shared).mode & 0o777).toBe(0o660);
  });

  it('replaces a socket file left by a dead signer, refuses a live one, and never replaces a plain file', async () => {
    const path = socketPath();
    const stale = createServer();
    await new Promise<void>((resolve) => stale.listen(path, resolve));
    // Leave the file behind the way a SIGKILL does: close the handle without unlinking.
    const handle = (stale as unknown as { _handle: { close(): void } | null })._handle;
    handle?.close();
    await serve(path);
    await expect(serve(path)).rejects.toThrow(/already listening/);
    const file = join(mkdtempSync(join(tmpdir(), 'akira-signer-')), 'not-a-socket');
    writeFileSync(file, 'x');
    await expect(serve(file)).rejects.toThrow(/is not a socket/);
  });

  it('fails requests when the signer goes away, reconnects when it is back, and refuses a signer with another key', async () => {
    const path = socketPath();
    const first = await serve(path);
    const { client } = await connect(path);
    await first.server.stop();
    await expect(client.signOrder(order())).rejects.toMatchObject({ code: 'SIGNER_UNAVAILABLE' });
    await serve(path);
    expect((await client.signOrder(order())).request.sign).toBeDefined();
    await servers.pop()!.stop();
    await serve(path, { key: OTHER_KEY });
    // The first request may still go to the old connection (its loss not yet seen) and fail there.
    await client.signOrder(order()).catch(() => undefined);
    const error = await client.signOrder(order()).catch((caught: unknown) => caught);
    expect(hasErrorCode(error, 'SIGNER_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain('now holds another key');
  });

  it('fails a request the signer does not answer in time', async () => {
    const path = socketPath();
    const silent = createServer((socket) => {
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        // Answers the greeting only; every later request goes unanswered.
        if (chunk.includes('"hello"')) {
          const hello = { version: 1, chain: 'mainnet', account: MAKER, starkKey: '0x1', policy: { chain: 'mainnet', account: MAKER, pairs: [], withdrawReceivers: [] } };
          socket.write(`${JSON.stringify({ id: 0, ok: hello })}\n`);
        }
      });
    });
    raw.push(silent);
    await new Promise<void>((resolve) => silent.listen(path, resolve));
    const clock = new ManualClock(0);
    const { client } = await connect(path, { clock });
    const pending = client.signOrder(order());
    await new Promise((resolve) => setTimeout(resolve, 20));
    clock.advance(1_000);
    await expect(pending).rejects.toMatchObject({ code: 'SIGNER_UNAVAILABLE' });
  });
});
