/**
 * Alerts from a live engine against the embedded exchange to a loopback receiver (issue 25 item 3,
 * "done when"): a halt caused in the sim (the drawdown kill switch, after a dump through our bid)
 * reaches the receiver as one webhook, one Telegram, one Slack and one Discord message within 2 s
 * of the halt; a storm of 429s the sim answers is counted by the venue and alerted once.
 * The bot runs as `akira-mm run` runs it (the daemon wires the notifier from the pair file's
 * ALERT_* keys): an observer per pair, a status poll over the engines and the venue's counters.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MarketMaker } from '../../src/engine/index.ts';
import type { LiveVenue } from '../../src/exchange/index.ts';
import type { WebhookPayload } from '../../src/ops/index.ts';
import type { SimHandle } from '../../src/sim/index.ts';
import { AlertReceiver, TELEGRAM_TOKEN } from '../ops/receiver.ts';
import { ETH, USDC, counterparty, eventually, place, startBot, startTestSim } from './support.ts';

let sim: SimHandle | undefined;
let receiver: AlertReceiver | undefined;
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await sim?.stop();
  await receiver?.stop();
  sim = undefined;
});

/** The bot on dev account 0 started like `akira-mm run` with every alert channel pointed at the receiver. */
async function startAlertingBot(r: AlertReceiver, env: Record<string, string>): Promise<{ engine: MarketMaker; venue: LiveVenue; haltedAt: () => number | undefined }> {
  let haltedAt: number | undefined;
  const bot = await startBot(
    sim as SimHandle,
    {
      ALERT_WEBHOOK_URL: r.urls.webhook,
      ALERT_TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
      ALERT_TELEGRAM_CHAT_ID: '42',
      ALERT_TELEGRAM_API_URL: r.urls.telegramApi,
      ALERT_SLACK_WEBHOOK_URL: r.urls.slack,
      ALERT_DISCORD_WEBHOOK_URL: r.urls.discord,
      ALERT_DAILY_SUMMARY_UTC: 'off',
      ...env,
    },
    { observerOf: () => ({ halted: () => (haltedAt ??= performance.now()) }) },
  );
  // Stopping flushes the notifier after the engines (bounded): what it still sends arrives before the receiver stops.
  cleanups.push(() => bot.stop());
  return { engine: bot.daemon.engine, venue: bot.session.venues[0] as LiveVenue, haltedAt: () => haltedAt };
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
    const bot = await startAlertingBot(receiver, { RISK_MAX_DRAWDOWN: '0.5', LADDER_ORDER_SIZE: '0.5' });
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
    const bot = await startAlertingBot(receiver, { ALERT_429_STORM: '3', ALERT_STORM_WINDOW_S: '60', RECONCILE_INTERVAL_S: '1' });
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
