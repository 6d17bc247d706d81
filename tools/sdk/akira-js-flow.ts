/**
 * `npm run sdk-check -- --akira-js DIR [--json]`: drives LayerAkira's own JavaScript SDK (akira-js,
 * unmodified, from a checkout the user supplies with its own dependencies installed) against
 * `akira-mm sim` on loopback, through the flow a user of the SDK runs: sign-in and JWT, every GET
 * the SDK has for our endpoints, the WS streams, place on both books, get order(s), cancel,
 * cancel-all, a fast-sign key and a cancel-all carrying it, withdraw, increase nonce, and the
 * SDK's DepthBook rebuilt from our snap stream against our REST snapshot and BBO. One line per
 * step, then `N passed, N failed`; exit 0 only when every step passed.
 *
 * Why a tool and not a test in `npm test`: akira-js is not on the npm registry (`layerakira-js`
 * answers 404) and its code is not ours to commit, so CI cannot have it. This driver is our own
 * code; the wire forms it exercises are also pinned in `test/sim/sdk-forms.test.ts`, which runs
 * in `npm test`. Last run and the commit it used: docs/venue.md §9.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- the SDK is loaded at run time from the user's checkout, untyped here */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseFlags, type CommandHelp } from '../../src/cli/args.ts';
import { UsageError, runReportingUsage } from '../../src/cli/io.ts';
import { startSim } from '../../src/sim/index.ts';

const USAGE = 'npm run sdk-check -- --akira-js DIR [--json]';
const HELP: CommandHelp = {
  usage: USAGE,
  summary:
    "Drives LayerAkira's akira-js SDK, unmodified, against the embedded exchange on loopback through a user's whole flow (sign-in, every GET, WS streams, place, get, cancel, cancel-all, fast-sign cancel-all, withdraw, increase nonce, DepthBook against the REST snapshot). " +
    'DIR is a checkout of github.com/LayerAkira/akira-js with its own dependencies installed (its node_modules/starknet is the one it pins). Exit 0 when every step passed, 1 otherwise.',
};
const OPTIONS = {
  'akira-js': { type: 'string', value: 'DIR', default: 'required', doc: 'a checkout of akira-js whose dependencies are installed (src/index.ts and node_modules/starknet inside it)' },
  json: { type: 'boolean', doc: 'print the steps as one last JSON line too' },
} as const;

async function main(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, OPTIONS, HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${USAGE}`);
  if (values['akira-js'] === undefined) throw new UsageError(`--akira-js DIR is required\nusage: ${USAGE}`);
  const dir = resolve(values['akira-js']);
  for (const needed of ['src/index.ts', 'node_modules/starknet/package.json']) {
    if (!existsSync(resolve(dir, needed))) throw new UsageError(`${resolve(dir, needed)} is missing: --akira-js must name a checkout of akira-js with its dependencies installed`);
  }
  const SDK: any = await import(pathToFileURL(resolve(dir, 'src/index.ts')).href);
  const starknet: any = await import(pathToFileURL(resolve(dir, 'node_modules/starknet/dist/index.js')).href);

  const results: Array<[string, boolean, string]> = [];
  async function step<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await run();
      results.push([name, true, '']);
      process.stdout.write(`ok   ${name}\n`);
      return value;
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      results.push([name, false, text]);
      process.stdout.write(`FAIL ${name}: ${text}\n`);
      return undefined;
    }
  }
  function ok<T>(result: { result?: T; code?: unknown; message?: unknown; error?: unknown }, what: string): T {
    if (result.result === undefined) throw new Error(`${what}: ${JSON.stringify(result, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))}`);
    return result.result;
  }
  async function until(what: string, check: () => boolean, ms = 5000): Promise<void> {
    for (let waited = 0; waited < ms; waited += 20) {
      if (check()) return;
      await sleep(20);
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  const sim = await startSim({ flow: { tickMs: 100 }, signatureWorkers: 0 });
  const chain = sim.chain;
  const acc = sim.accounts[0];
    if (acc === undefined) throw new Error('the sim has no dev account');
  const tokenMapping: Record<string, string> = {};
  const decimals: Record<string, number> = {};
  for (const [symbol, info] of chain.tokens) {
    tokenMapping[symbol] = info.address;
    decimals[symbol] = info.decimals;
  }
  // What a user writes: a checksummed account, the key as starknet.js prints it.
  const account = starknet.getChecksumAddress(`0x${acc.address.toString(16)}`);
  const signer = new starknet.Signer(`0x${acc.privateKey!.toString(16)}`);
  const signerKey: string = await signer.getPubKey();
  const domain = SDK.getDomain(chain.chainId);
  const sign = async (data: unknown) => SDK.castToApiSignature(await signer.signMessage(data, account));
  process.stdout.write(`account ${account} signer ${signerKey}\n`);

  const http = new SDK.LayerAkiraHttpAPI({ apiBaseUrl: sim.httpUrl }, decimals, 'STRK', () => {});

  await step('sign-in and JWT', async () => {
    const data = ok(await http.getSignData(signerKey, account), 'getSignData');
    const jwt = ok(await http.auth(data, await sign(SDK.getTypedDataForJWT(data, domain))), 'auth');
    http.setCredentials(jwt, account, signerKey);
  });
  const gas = await step('queryGasPrice', async () => ok<bigint>(await http.queryGasPrice(), 'gas'));
  await step('queryTickerSpecification', async () => ok(await http.queryTickerSpecification(), 'tickers'));
  const steps = await step('queryStepsSpecification', async () => ok<any>(await http.queryStepsSpecification(), 'steps'));
  const router = await step('queryRouterSpecification', async () => ok<any>(await http.queryRouterSpecification(), 'router'));
  await step('getConversionRate', async () => ok(await http.getConversionRate('USDC'), 'rate'));
  await step('getBBO', async () => ok(await http.getBBO('ETH', 'USDC', true), 'bbo'));
  await step('getSnapshot', async () => ok(await http.getSnapshot('ETH', 'USDC', false), 'snapshot'));
  const info = await step('getUserInfo', async () => ok<any>(await http.getUserInfo(), 'user info'));
  await step('getListenKey', async () => ok(await http.getListenKey(), 'listen key'));

  const ws = new SDK.LayerAkiraWSSAPI(sim.wsUrl, http, true, () => {}, 200);
  const fills: any[] = [];
  const bbos: any[] = [];
  const trades: any[] = [];
  void ws.connect();
  await until('ws open', () => ws.lastConnected > 0);
  const eco = { pair: { base: 'ETH', quote: 'USDC' }, isEcosystemBook: true };
  const rb = { pair: { base: 'ETH', quote: 'USDC' }, isEcosystemBook: false };
  await step('ws subscribe fills', async () => ok(await ws.subscribeOnExecReport(async (e: any) => void fills.push(e), 5000), 'fills'));
  await step('ws subscribe bbo', async () => ok(await ws.subscribeOnMarketData(async (e: any) => void bbos.push(e), 'bbo', eco, 5000), 'bbo'));
  await step('ws subscribe trade', async () => ok(await ws.subscribeOnMarketData(async (e: any) => void trades.push(e), 'trade', eco, 5000), 'trade'));
  const depth = new SDK.DepthBook(http, ws, [rb], () => {});
  await step('DepthBook run (snap)', async () => {
    await depth.run();
    await until('a snap delta', () => depth.getBook(rb.pair) !== undefined);
  });

  const builder = new SDK.OrderConstructor(
    account, 0, new SDK.TickerFeeMap(info?.fees?.[0]?.fee ?? [0, 0]),
    starknet.getChecksumAddress(chain.feeRecipient),
    steps?.swapEcosystem ?? 0, steps?.swapRouter ?? 0, 'STRK', 'layerakira',
    new SDK.TickerFeeMap([router?.routerMakerPbips ?? 0, router?.routerTakerPbips ?? 0]),
    router?.routerSigner, router?.routerFeeRecipient,
  );
  async function place(ticker: typeof eco, price: bigint, side: number): Promise<string> {
    const order = builder.buildSimpleRestingOrder(ticker, price, { base_qty: 10n ** 16n, quote_qty: 0n, base_asset: 10n ** 18n }, side);
    const hash = SDK.getSignDataHash(SDK.getOrderSignData(order, domain, tokenMapping, chain.executorAddress), account);
    const result = await http.placeOrder(order, await sign(SDK.getOrderSignData(order, domain, tokenMapping, chain.executorAddress)));
    const answered = ok<bigint>(result, 'placeOrder');
    if (BigInt(answered) !== BigInt(hash)) throw new Error(`hash ${answered} != ${hash}`);
    return hash;
  }
  const ecoHash = await step('placeOrder ecosystem book', () => place(eco, 1000n * 10n ** 6n, 0));
  const rbHash = await step('placeOrder router book', () => place(rb, 1001n * 10n ** 6n, 0));
  await step('fills stream reports the placement', () => until('a fill event', () => fills.some((f) => BigInt(f.hash ?? 0) === BigInt(ecoHash ?? -1))));
  await step('getOrder full', async () => {
    const o = ok<any>(await http.getOrder(account, ecoHash!, 1, true), 'getOrder');
    if (BigInt(o.hash) !== BigInt(ecoHash!)) throw new Error('wrong order');
  });
  await step('getOrder reduced', async () => ok(await http.getOrder(account, ecoHash!, 2, true), 'getOrder'));
  await step('getOrders full', async () => {
    const e = ok<any>(await http.getOrders(1, 20, 0, true, null, null, true), 'getOrders');
    if (!e.data.some((o: any) => BigInt(o.hash) === BigInt(ecoHash!))) throw new Error(`ecosystem order missing of ${e.data.length}`);
    const r = ok<any>(await http.getOrders(1, 20, 0, true), 'getOrders');
    if (!r.data.some((o: any) => BigInt(o.hash) === BigInt(rbHash!))) throw new Error(`router order missing of ${r.data.length}`);
  });
  await step('getOrders reduced', async () => ok(await http.getOrders(2, 20, 0, true), 'getOrders'));
  const statusOf = async (hash: string) => (ok<any>(await http.getOrder(account, hash, 2, false), 'getOrder')).state.status;
  await step('cancelOrder', async () => {
    const req = { maker: account, order_hash: ecoHash!, salt: 7n, sign_scheme: 'ecdsa curve' };
    ok(await http.cancelOrder(req, await sign(SDK.getCancelOrderSignData(req, domain))), 'cancelOrder');
    await sim.idle();
    if ((await statusOf(ecoHash!)) !== 'CANCELLED') throw new Error(`status ${await statusOf(ecoHash!)}`);
  });
  await step('cancelAll', async () => {
    const req = { maker: account, order_hash: null, salt: 8n, ticker: rb, sign_scheme: 'ecdsa curve' };
    ok(await http.cancelAll(req, await sign(SDK.getCancelOrderSignData(req, domain, tokenMapping))), 'cancelAll');
    await sim.idle();
    if ((await statusOf(rbHash!)) !== 'CANCELLED') throw new Error(`status ${await statusOf(rbHash!)}`);
  });
  const fastKey = await step('fast-sign key', async () => {
    const data = ok<any>(await http.getFastSignCancelData(signerKey, account), 'getFastSignCancelData');
    return ok<string>(await http.issueFastSignKey(data.msg, await sign(SDK.getTypedDataForFastCancel(data, domain))), 'issueFastSignKey');
  });
  await step('cancel-all with the fast-sign key (python_akira body through the SDK post)', async () => {
    const hash = await place(eco, 999n * 10n ** 6n, 0);
    await sim.idle();
    // akira-js cancelAll drops fast_sign_key; python_akira cancel_all_orders sends it with sign [0, 0].
    ok(await http.post('/cancel_all', { maker: account, sign: ['0x0', '0x0'], order_hash: 0, salt: '0x1234', ticker: { base: 'ETH', quote: 'USDC', to_ecosystem_book: true }, sign_scheme: 'ecdsa curve', fast_sign_key: fastKey }, false), 'cancel_all');
    await sim.idle();
    if ((await statusOf(hash)) !== 'CANCELLED') throw new Error(`status ${await statusOf(hash)}`);
  });
  await step('router book levels placed and one cancelled (for the DepthBook)', async () => {
    await place(rb, 1001n * 10n ** 6n, 0);
    await place(rb, 1001n * 10n ** 6n, 0);
    const gone = await place(rb, 1002n * 10n ** 6n, 0);
    await place(rb, 9000n * 10n ** 6n, 1);
    await place(rb, 9100n * 10n ** 6n, 1);
    await sim.idle();
    const req = { maker: account, order_hash: gone, salt: 17n, sign_scheme: 'ecdsa curve' };
    ok(await http.cancelOrder(req, await sign(SDK.getCancelOrderSignData(req, domain))), 'cancelOrder');
    await sim.idle();
  });
  await step('ws bbo and trade events', () => until('bbo and trade', () => bbos.length > 0 && trades.length > 0, 10000));
  await step('DepthBook equals REST BBO', async () => {
    sim.setFlowRunning(false);
    await sim.idle();
    await sleep(300);
    const book = depth.getBook(rb.pair);
    process.stdout.write(`  book top ${book.bids[0]} / ${book.asks[0]}, ${book.bids.length}+${book.asks.length} levels\n`);
    const bbo = ok<any>(await http.getBBO('ETH', 'USDC', false), 'bbo');
    const bid = book.bids[0];
    const ask = book.asks[0];
    const snap = ok<any>(await http.getSnapshot('ETH', 'USDC', false), 'snapshot');
    const text = (levels: any[]) => JSON.stringify(levels.map((l) => [String(l[0]), String(l[1])]));
    if (text(book.bids) !== text(snap.levels.bids) || text(book.asks) !== text(snap.levels.asks)) throw new Error(`book ${text(book.bids)} ${text(book.asks)} vs snapshot ${text(snap.levels.bids)} ${text(snap.levels.asks)}`);
    if (bid === undefined || ask === undefined || bid[0] !== bbo.bid?.price || ask[0] !== bbo.ask?.price || bid[1] !== bbo.bid?.volume || ask[1] !== bbo.ask?.volume) throw new Error(`book ${bid} / ${ask} vs bbo ${JSON.stringify(bbo, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))}`);
  });

  await step('withdraw', async () => {
    const w = new SDK.WithdrawConstructor(account, chain.feeRecipient, steps?.withdraw ?? 0, 'STRK').buildWithdraw('USDC', 10n ** 6n, (gas ?? 0n) * 2n);
    const before = sim.balancesOf(acc.address).get('USDC')!;
    ok(await http.withdraw(w, await sign(SDK.getWithdrawSignData(w, domain, tokenMapping, chain.coreAddress))), 'withdraw');
    await until('withdraw settled', () => fills.some((f) => f.source === 'withdraw' || f.tx_hash !== undefined), 10000);
    const after = sim.balancesOf(acc.address).get('USDC')!;
    if (before.free + before.locked - (after.free + after.locked) < 10n ** 6n) throw new Error('balance did not drop');
  });
  await step('increaseNonce', async () => {
    const req = { maker: account, new_nonce: 1, gas_fee: { gas_per_action: steps?.nonce ?? 0, fee_token: 'STRK', max_gas_price: (gas ?? 0n) * 2n, conversion_rate: [1n, 1n] }, salt: 9n, sign_scheme: 'ecdsa curve' };
    ok(await http.increaseNonce(req, await sign(SDK.getCancelAllOnchainOrderSignData(req, domain, tokenMapping))), 'increaseNonce');
    await until('nonce 1', () => sim.nonceOf(acc.address) === 1, 10000);
    if (BigInt((ok<any>(await http.getUserInfo(), 'user info')).nonce) !== 1n) throw new Error('user_info nonce');
  });
  ws.close();
  await sim.stop();
  const failed = results.filter(([, passed]) => !passed).length;
  process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
  if (values.json === true) process.stdout.write(`${JSON.stringify({ passed: results.length - failed, failed, steps: results.map(([name, passed, error]) => ({ name, passed, ...(passed ? {} : { error }) })) })}\n`);
  return failed === 0 ? 0 : 1;
}

runReportingUsage('sdk-check', process, () => main(process.argv.slice(2))).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`sdk-check: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
