/**
 * The one way engines start, for N ≥ 1 pairs on one account (one pair is an account of one):
 *
 * 1. each pair connects (its reference market first, then its venue) and its engine is built from
 *    what the venue said; it settles its leftovers (the crash journal, the startup-order policy);
 * 2. the account reads its balances and gives each pair its funds;
 * 3. every engine quotes.
 *
 * Every pair's connect runs to its end before a failure stops them all (a start still under way
 * would open its stream again behind the stop). The live daemon, paper mode and backtests all
 * start here.
 */
import type { ReferenceListener, VenueListener } from '../core/index.ts';
import type { Account } from './account.ts';
import { MarketMaker, type EngineOptions } from './engine.ts';

/** One pair to start: its engine's collaborators and its name on the account. */
export interface PairStart extends EngineOptions {
  /** `BASE/QUOTE`, as the account knows the pair. */
  readonly pairName: string;
}

/**
 * Starts every pair on the account; resolves with their engines (in the order given) once every
 * one quotes.
 * @throws the first pair's failure (a venue that refuses the pair, a startup cancel that fails,
 *   budgets that ask for more than the account holds), after stopping what had started.
 */
export async function startEngines(account: Account, pairs: readonly PairStart[]): Promise<MarketMaker[]> {
  const connected = await Promise.allSettled(pairs.map((pair) => connect(account, pair)));
  const engines = connected.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const failed = connected.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  try {
    if (failed !== undefined) throw failed.reason;
    const settled = await Promise.allSettled(engines.map((engine) => engine.settle()));
    const unsettled = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (unsettled !== undefined) throw unsettled.reason;
    // Every pair settled its leftovers first: the budgets split what is free after that.
    account.allocate((await account.balances()).balances);
  } catch (error) {
    await Promise.all(engines.map((engine) => engine.stop()));
    throw error;
  }
  for (const engine of engines) engine.begin();
  return engines;
}

/** Starts the pair's reference and venue, then builds its engine from what the venue said. */
async function connect(account: Account, pair: PairStart): Promise<MarketMaker> {
  const { pairName, ...options } = pair;
  // Events before the engine exists (during the starts) have nothing to update: they are dropped.
  const venueEvents = relay<VenueListener>({ onTopOfBook: ignore, onTrade: ignore, onOrderReport: ignore, onGasQuote: ignore, onResync: ignore, onFeedStatus: ignore, onVenueAlert: ignore });
  const referenceEvents = relay<ReferenceListener>({ onTop: ignore, onTrade: ignore, onStatus: ignore });
  try {
    await options.reference?.start(referenceEvents.listener);
    const info = await options.venue.start(venueEvents.listener);
    const engine = new MarketMaker(options, { info, account, pairName });
    venueEvents.attach(engine.venueListener());
    const referenceListener = engine.referenceListener();
    if (referenceListener !== undefined) referenceEvents.attach(referenceListener);
    return engine;
  } catch (error) {
    // Stopping is idempotent: a venue that failed its start has stopped itself already.
    await options.venue.stop();
    await options.reference?.stop();
    throw error;
  }
}

function ignore(): void {}

/**
 * A listener handed out before its target exists: its methods are replaced by the target's when
 * attached, so an event costs the same one call as a listener given directly.
 */
function relay<T extends object>(dropping: T): { readonly listener: T; attach(target: T): void } {
  const listener = { ...dropping };
  return { listener, attach: (target) => Object.assign(listener, target) };
}
