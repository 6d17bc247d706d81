import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSilentLogger } from './src/core/index.ts';
import { feltToHex } from './src/exchange/wire/fields.ts';
import { startSim } from './src/sim/index.ts';
import { startLiveRun } from './src/cli/live.ts';
import { validatePairEnv } from './src/cli/pair-config.ts';
import { silentIo } from './test/integration/support.ts';
const sim = await startSim({ port: 0, seed: 0, chain: 'mainnet', flow: true });
const account = sim.accounts[0]!;
const config = validatePairEnv({ BASE: 'ETH', QUOTE: 'USDC', CHAIN: 'mainnet', STRATEGY: process.argv[2] ?? 'ladder', LADDER_LEVELS: '2', LADDER_ORDER_SIZE: '0.05', LADDER_BID_SPREAD_BPS: '4', LADDER_ASK_SPREAD_BPS: '4', LADDER_INVENTORY_SKEW: 'on', LOG_LEVEL: 'silent', EXCHANGE_HTTP_URL: sim.httpUrl, EXCHANGE_WS_URL: sim.wsUrl, TRADING_ACCOUNT: feltToHex(account.address), SIGNER_PRIVATE_KEY: feltToHex(account.privateKey!), METRICS_PORT: '0' }, 'diag');
let stop: (s: string) => void = () => undefined;
const run = await startLiveRun({ config, io: silentIo(), logger: createSilentLogger(), journalPath: join(mkdtempSync(join(tmpdir(), 'd-')), 'j'), stopSignal: new Promise((r) => (stop = r)), showStatus: false, signingWorkers: 0 });
const counts: Record<string, number> = {};
for (let i = 0; i < 200; i++) {
  await new Promise((r) => setTimeout(r, 100));
  const s = run.daemon.engine.status();
  const key = `${s.state} bids=${s.bids.length} asks=${s.asks.length} fair=${s.fair === undefined ? 'none' : 'ok'}`;
  counts[key] = (counts[key] ?? 0) + 1;
  if (s.bids.length === 0 || s.asks.length === 0) {
    const e: any = run.daemon.engine;
    const m = e.market;
    console.log(i, key, 'top', m.bestBidUnits(), m.bestAskUnits(), 'desired', e.pipeline.last?.result?.map((q: any) => `${q.side}@${q.priceUnits}x${q.qtyUnits}`).join(' '), 'busy', e.orders.isBusy('buy'), e.orders.isBusy('sell'), 'live', e.orders.table.live().map((o: any) => `${o.side}@${o.priceUnits}:${o.phase}`).join(' '), 'stats', JSON.stringify({ g: e.orders.stats().gated, t: e.orders.stats().throttled }));
  }
}
console.log(counts, run.daemon.engine.status().scorecard);
stop('x'); await run.daemon.done; await sim.stop();
