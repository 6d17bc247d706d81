/**
 * Alerts from a live engine against the embedded exchange to a loopback receiver (issue 25 item 3,
 * "done when"): a halt caused in the sim (the drawdown kill switch, after a dump through our bid)
 * reaches the receiver as one webhook, one Telegram, one Slack and one Discord message within 2 s
 * of the halt; a storm of 429s the sim answers is counted by the venue and alerted once.
 * The engine is wired as the daemon will wire it: an observer per pair through
 * `combineObservers`, a status poll over the engine and the venue's counters.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock, createRng, createSilentLogger, getChain, getToken } from '../../src/core/index.ts';
import { MarketMaker, combineObservers, engineSettingsOf } from '../../src/engine/index.ts';
import { createLiveVenue, type LiveVenue } from '../../src/exchange/index.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { Notifier, OpsMonitor, type WebhookPayload } from '../../src/ops/index.ts';
import type { SimHandle } from '../../src/sim/index.ts';
import { validatePairEnv } from '../../src/cli/pair-config.ts';
import { getStrategyDefinition } from '../../strategies/index.ts';
import { AlertReceiver, TELEGRAM_TOKEN } from '../ops/receiver.ts';
import { ETH, USDC, counterparty, devVenueConfig, eventually, place, startTestSim } from './support.ts';

let sim: SimHandle | undefined;
let receiver: AlertReceiver | undefined;
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await sim?.stop();
  await receiver?.stop();
  sim = undefined;
});

/** The bot on dev account 0 with the notifier wired in, as the daemon does it. */
async function startAlertingBot(s: SimHandle, r: AlertReceiver, env: Record<string, string>): Promise<{ engine: MarketMaker; venue: LiveVenue; notifier: Notifier; haltedAt: () => number | undefined }> {
  const account = s.accounts[0]!;
  const config = validatePairEnv(
    {
      EXCHANGE_HTTP_URL: s.httpUrl,
      EXCHANGE_WS_URL: s.wsUrl,
      TRADING_ACCOUNT: feltToHex(account.address),
      SIGNER_PRIVATE_KEY: feltToHex(account.privateKey!),
      BASE: 'ETH',
      QUOTE: 'USDC',
      LADDER_LEVELS: '1',
      LADDER_BID_SPREAD_BPS: '5',
      LADDER_ASK_SPREAD_BPS: '5',
      ALERT_WEBHOOK_URL: r.urls.webhook,
      ALERT_TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
      ALERT_TELEGRAM_CHAT_ID: '42',
      ALERT_TELEGRAM_API_URL: r.urls.telegramApi,
      ALERT_SLACK_WEBHOOK_URL: r.urls.slack,
      ALERT_DISCORD_WEBHOOK_URL: r.urls.discord,
      ALERT_DAILY_SUMMARY_UTC: 'off',
      ...env,
    },
    'test',
  );
  const clock = new LiveClock();
  const logger = createSilentLogger();
  const chain = getChain(config.chain);
  const decimals = { baseDecimals: getToken(chain, config.base).decimals, quoteDecimals: getToken(chain, config.quote).decimals };
  const venue = createLiveVenue(devVenueConfig(s, 0, 0), { clock, rng: createRng(7), logger });
  const settings = engineSettingsOf(config.keys, decimals);
  const definition = getStrategyDefinition(config.strategy)!;
  const params = definition.parseParams(config.raw);
  if (!params.ok) throw new Error('bad strategy keys');
  // The wiring: a notifier from the config, a monitor over the pair and the venue, its observer beside the others.
  const notifier = Notifier.create({ settings: config.alerts, clock, logger })!;
  // The monitor reads the engine it is an observer of: built first, it reads it only once polled.
  const monitor: OpsMonitor = new OpsMonitor({
    sink: notifier,
    clock,
    source: {
      account: config.tradingAccount,
      venue: 'layerakira',
      pairs: [{ pair: 'ETH/USDC', base: 'ETH', quote: 'USDC', ...decimals, driftToleranceUnits: settings.driftToleranceUnits, status: () => engine.status() }],
      venueReconnects: () => venue.streamStats()?.reconnects,
      venueRateLimited: () => venue.rateLimited(),
    },
  });
  let haltedAt: number | undefined;
  const engine: MarketMaker = new MarketMaker({
    venue,
    strategy: definition.create(params.params),
    clock,
    logger,
    settings,
    observer: combineObservers([monitor.observerFor('ETH/USDC'), { halted: () => (haltedAt ??= performance.now()) }]),
  });
  monitor.start();
  await engine.start();
  // Stop order: the engine (its last alerts raised), the monitor, then the notifier's flush.
  cleanups.push(async () => {
    await engine.stop();
    monitor.stop();
    await notifier.stop();
  });
  return { engine, venue, notifier, haltedAt: () => haltedAt };
}

describe('alerts from the engine against the embedded exchange', () => {
  it('a halt caused in the sim reaches the receiver as one webhook, one Telegram, one Slack and one Discord message within 2 s', async () => {
    sim = await startTestSim();
    receiver = await new AlertReceiver().start();
    const maker = await counterparty(sim, 2);
    cleanups.push(() => maker.stop());
    await place(maker, { side: 'buy', priceUnits: 2990n * USDC, qtyUnits: ETH, postOnly: true });
    await place(maker, { side: 'sell', priceUnits: 3010n * USDC, qtyUnits: ETH, postOnly: true });
    await place(maker, { side: 'buy', priceUnits: 2900n * USDC, qtyUnits: 5n * ETH, postOnly: true });
    const bot = await startAlertingBot(sim, receiver, { RISK_MAX_DRAWDOWN: '0.5', LADDER_ORDER_SIZE: '0.5' });
    const account = sim.accounts[0]!.address;
    const s = sim;
    await eventually(() => s.openOrdersOf(account).some((order) => !order.request.flags.isSellSide) || undefined, 20_000, 'a bid');
    // Dev account 3 dumps 2 ETH at 2950 through our bid: the market settles far below what we paid.
    const dumper = await counterparty(sim, 3);
    cleanups.push(() => dumper.stop());
    await place(dumper, { side: 'sell', priceUnits: 2950n * USDC, qtyUnits: 2n * ETH, postOnly: false });
    await eventually(() => bot.engine.status().state === 'halted' || undefined, 20_000, 'the kill switch');
    const r = receiver;
    await eventually(() => r.received.length >= 4 || undefined, 5_000, 'four messages');
    const haltedAt = bot.haltedAt()!;
    for (const request of r.received) expect(request.atMs - haltedAt, request.service).toBeLessThan(2_000);
    await bot.notifier.settled();
    expect(r.received.map((request) => request.service).sort()).toEqual(['discord', 'slack', 'telegram', 'webhook']);
    const payload = r.of('webhook')[0]?.body as WebhookPayload;
    expect(payload).toMatchObject({ kind: 'halt', severity: 'critical', pairs: ['ETH/USDC'], facts: { code: 'RISK_DRAWDOWN' } });
    expect(payload.text).toMatch(/drawdown .* reached the limit 0\.5/);
    expect((r.of('telegram')[0]?.body as { text: string }).text).toBe(payload.text);
  }, 90_000);

  it('counts the sim\'s 429 answers in the venue and alerts one storm', async () => {
    sim = await startTestSim();
    receiver = await new AlertReceiver().start();
    const maker = await counterparty(sim, 2);
    cleanups.push(() => maker.stop());
    await place(maker, { side: 'buy', priceUnits: 2990n * USDC, qtyUnits: ETH, postOnly: true });
    await place(maker, { side: 'sell', priceUnits: 3010n * USDC, qtyUnits: ETH, postOnly: true });
    const bot = await startAlertingBot(sim, receiver, { ALERT_429_STORM: '3', ALERT_STORM_WINDOW_S: '60', RECONCILE_INTERVAL_S: '1' });
    sim.faults.set({ httpRateLimitRate: 1, rateLimitSleepMs: 20 });
    const r = receiver;
    await eventually(() => r.of('webhook').some((request) => (request.body as WebhookPayload).kind === '429-storm') || undefined, 20_000, 'the 429 storm alert');
    sim.faults.reset();
    expect(bot.venue.rateLimited()).toBeGreaterThanOrEqual(3);
    const storms = r.of('webhook').filter((request) => (request.body as WebhookPayload).kind === '429-storm');
    expect(storms).toHaveLength(1);
    expect(storms[0]?.body).toMatchObject({ severity: 'warning', headline: '429 STORM', facts: { venue: 'layerakira' } });
  }, 90_000);
});
