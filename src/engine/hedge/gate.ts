/**
 * How the hedger's side states shape a requote, as pure functions: an `off` side quotes nothing
 * (the diff then cancels what rests there, risk-reducing cancels first), a `hold` side keeps what
 * rests but places nothing new until its pending hedge is done.
 */
import type { DesiredQuote } from '../../core/index.ts';
import type { SidePlan } from '../orders/priorities.ts';
import type { EngineHedge } from './link.ts';

/** The strategy's quotes without those of `off` sides. */
export function withoutOffSides(quotes: DesiredQuote[], hedge: Pick<EngineHedge, 'sideState'>): DesiredQuote[] {
  const buyOff = hedge.sideState('buy') === 'off';
  const sellOff = hedge.sideState('sell') === 'off';
  if (!buyOff && !sellOff) return quotes;
  return quotes.filter((quote) => (quote.side === 'buy' ? !buyOff : !sellOff));
}

/** The plans with no placement on a side that is not `open` (cancels still go). */
export function gatePlans(plans: SidePlan[], hedge: Pick<EngineHedge, 'sideState'>): SidePlan[] {
  const gated: SidePlan[] = [];
  for (const plan of plans) {
    if (hedge.sideState(plan.side) === 'open' || plan.diff.place.length === 0) {
      gated.push(plan);
      continue;
    }
    if (plan.diff.cancel.length > 0) gated.push({ ...plan, diff: { ...plan.diff, place: [] } });
  }
  return gated;
}
