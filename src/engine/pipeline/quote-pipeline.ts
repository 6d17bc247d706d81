/**
 * The quoting pipeline after the strategy, as one pure function over one explicit input:
 * strategy quotes → integer ticks (round once, clamp to the touch) → caps (position, notional,
 * funds, band, count) → edge (from each quote's reference; inventory-reducing quotes always stay)
 * → each quote's requote tolerance. Memoisation lives in one place, `QuotePipeline`: most book
 * changes leave every input as it was (a size at the touch moved), so the last answer stands.
 */
import { numberToUnits, unitsToNumber, type DesiredQuote, type TickerRules } from '../../core/index.ts';
import type { RequoteTolerance } from '../settings.ts';
import { clipQuotes, type Holdings, type RiskLimits } from './caps.ts';
import type { RoundedQuote } from './diff.ts';
import { filterByEdge, gasCostQuote, type EdgeContext } from './edge.ts';
import { quotesToTicks, type Touch } from './ticks.ts';

/** Everything the pipeline reads. */
export interface PipelineInput {
  /** The strategy's quotes (floats). */
  readonly quotes: readonly DesiredQuote[];
  /** The fair price (quote tokens per base token) and the same in quote units. */
  readonly fair: number;
  readonly fairUnits: bigint;
  readonly touch: Touch;
  readonly rules: TickerRules;
  /** The tick as a number (`tickSizeNumber(rules)`), computed once. */
  readonly tickSize: number;
  readonly holdings: Holdings;
  readonly limits: RiskLimits;
  readonly minEdgeBps: number;
  readonly edge: EdgeContext;
  readonly tolerance: RequoteTolerance;
}

/** The quotes that should rest now, each with its requote tolerance. */
export function runQuotePipeline(input: PipelineInput): RoundedQuote[] {
  const ticked = quotesToTicks(input.quotes, input.touch, input.rules, input.tickSize);
  const clipped = clipQuotes(ticked, input.limits, input.holdings, input.fairUnits, input.rules);
  const position = input.holdings.baseUnits - input.holdings.targetUnits;
  const paying = filterByEdge(clipped, input.fair, position, input.minEdgeBps, input.edge);
  // The same for every quote of this run: computed once, not per quote.
  const bands: Bands = {
    byTicks: BigInt(Math.max(0, Math.floor(input.tolerance.ticks))) * input.rules.priceTick,
    // Gas per cancel is 0 where cancels are off-chain (LayerAkira): then the size is not needed.
    cancelGas: gasCostQuote(input.edge.steps.cancel, input.edge),
  };
  const result: RoundedQuote[] = [];
  for (const quote of paying) result.push(withTolerance(quote, input, bands));
  return result;
}

/** The parts of the bands that do not depend on the quote. */
interface Bands {
  /** `tolerance.ticks` whole ticks, quote units. */
  readonly byTicks: bigint;
  /** Gas of one cancel, quote tokens. */
  readonly cancelGas: number;
}

/**
 * The bands of one quote. Less aggressive: max(ticks · tick, bps · price or a share of its
 * distance from its reference). More aggressive: a share of the edge it is meant to earn after
 * the maker fee and gas (0 when it earns none, e.g. a quote shedding inventory).
 */
function withTolerance(quote: RoundedQuote, input: PipelineInput, bands: Bands): RoundedQuote {
  const { tolerance, rules } = input;
  const { byTicks, cancelGas } = bands;
  const price = unitsToNumber(quote.priceUnits, rules.quoteDecimals);
  const distance = Math.abs(price - (quote.reference ?? input.fair));
  const relative = tolerance.bps === 'auto' ? tolerance.fractionOfDistance * distance : (price * tolerance.bps) / 10_000;
  const byPrice = toUnits(relative, rules);
  const size = cancelGas > 0 ? unitsToNumber(quote.qtyUnits, rules.baseDecimals) : 0;
  const costPerUnit = (price * input.edge.makerFeePbips) / 1_000_000 + (size > 0 ? cancelGas / size : 0);
  const aggressive = toUnits(tolerance.aggressiveEdgeFraction * (distance - costPerUnit), rules);
  const toleranceUnits = byTicks > byPrice ? byTicks : byPrice;
  // Literals of a fixed shape, not a spread (this runs for every quote of every book change).
  return quote.reference === undefined
    ? { side: quote.side, priceUnits: quote.priceUnits, qtyUnits: quote.qtyUnits, level: quote.level, toleranceUnits, aggressiveToleranceUnits: aggressive }
    : { side: quote.side, priceUnits: quote.priceUnits, qtyUnits: quote.qtyUnits, level: quote.level, reference: quote.reference, toleranceUnits, aggressiveToleranceUnits: aggressive };
}

/** `10 ** d` for the usual decimals, the very values `10 ** d` gives, computed once instead of a `Math.pow` per band. */
const SCALES: readonly number[] = Array.from({ length: 23 }, (_, d) => 10 ** d);

/**
 * A band width in quote units, rounded down. A band is a threshold the diff compares distances
 * with, never a price sent to the venue, so the float product floored is exact enough and spares
 * the exact decimal conversion prices get (this runs for every quote of every book change).
 */
function toUnits(width: number, rules: TickerRules): bigint {
  if (!(width > 0) || !Number.isFinite(width)) return 0n;
  const decimals = rules.quoteDecimals;
  const scaled = Math.floor(width * (decimals < SCALES.length ? (SCALES[decimals] as number) : 10 ** decimals));
  return Number.isSafeInteger(scaled) ? BigInt(scaled) : numberToUnits(width, rules.quoteDecimals, 'down');
}

/** Same quotes, field by field (a strategy may hand back the same values in a new array). */
export function sameDesiredQuotes(a: readonly DesiredQuote[], b: readonly DesiredQuote[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as DesiredQuote;
    const y = b[i] as DesiredQuote;
    if (x.side !== y.side || !Object.is(x.price, y.price) || !Object.is(x.size, y.size) || x.level !== y.level || !Object.is(x.reference, y.reference)) return false;
  }
  return true;
}

/**
 * `runQuotePipeline` with the last answer kept: the same input (field by field; settings-like
 * inputs by identity) returns the same array, which also tells the requote loop that nothing
 * changed for its quiet-side shortcut.
 */
export class QuotePipeline {
  private last: { readonly input: PipelineInput; readonly quotes: readonly DesiredQuote[]; readonly result: RoundedQuote[] } | undefined;

  run(input: PipelineInput): RoundedQuote[] {
    const last = this.last;
    if (last !== undefined && isSameInput(last.input, input) && sameDesiredQuotes(last.quotes, input.quotes)) return last.result;
    const result = runQuotePipeline(input);
    // The strategy may reuse its array: keep a copy of what was read.
    const quotes = input.quotes.map(copyQuote);
    this.last = { input, quotes, result };
    return result;
  }
}

/** The fields `sameDesiredQuotes` reads, in a literal of one shape. */
function copyQuote(quote: DesiredQuote): DesiredQuote {
  return quote.reference === undefined
    ? { side: quote.side, price: quote.price, size: quote.size, level: quote.level }
    : { side: quote.side, price: quote.price, size: quote.size, level: quote.level, reference: quote.reference };
}

function isSameInput(a: PipelineInput, b: PipelineInput): boolean {
  return (
    Object.is(a.fair, b.fair) &&
    a.fairUnits === b.fairUnits &&
    a.touch.bestBidUnits === b.touch.bestBidUnits &&
    a.touch.bestAskUnits === b.touch.bestAskUnits &&
    a.rules === b.rules &&
    a.holdings.baseUnits === b.holdings.baseUnits &&
    a.holdings.targetUnits === b.holdings.targetUnits &&
    a.holdings.quoteUnits === b.holdings.quoteUnits &&
    a.limits === b.limits &&
    a.minEdgeBps === b.minEdgeBps &&
    a.edge === b.edge &&
    a.tolerance === b.tolerance
  );
}
