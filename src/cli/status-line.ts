/**
 * The compact live status a TTY shows while the bot runs: one line per pair, rewritten in place —
 * state, mid, our best quotes, inventory, PnL, fills and the 10 s markout (with a reference: its
 * price and the markouts against it; several pairs: and the account's row).
 */
import type { AccountSnapshot, EngineStatus } from '../engine/index.ts';

/** Formats a number with a fixed number of significant decimals, or "–". */
function show(value: number | undefined, decimals: number): string {
  return value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(decimals);
}

/** Decimals that show a price of this size to about 6 significant digits. */
export function priceDecimals(mid: number | undefined): number {
  if (mid === undefined || mid <= 0) return 2;
  return Math.max(0, Math.min(8, 5 - Math.floor(Math.log10(mid))));
}

/** One status line (no newline). */
export function renderStatusLine(status: EngineStatus, pair: string): string {
  const decimals = priceDecimals(status.mid);
  const bid = status.bids[0];
  const ask = status.asks[0];
  const quotes = `${bid === undefined ? '–' : `${show(bid.size, 4)}@${show(bid.price, decimals)}`} | ${ask === undefined ? '–' : `${show(ask.size, 4)}@${show(ask.price, decimals)}`}`;
  const state = status.state === 'halted' ? `HALTED (${status.haltReason?.message ?? ''})` : status.state === 'paused' ? `paused (${status.pauseReason ?? ''})` : status.state;
  const markout = status.markouts.meanBps[1];
  return [
    `${pair} ${state}`,
    `mid ${show(status.mid, decimals)}`,
    `quotes ${quotes} (${status.bids.length}b/${status.asks.length}a)`,
    `inv ${show(status.baseBalance, 4)} / ${show(status.quoteBalance, 2)}`,
    `pnl ${show(status.pnl.total, 4)} (fees ${show(status.pnl.feesPaid, 4)})`,
    `fills ${status.pnl.fills}`,
    `mo10s ${markout === undefined ? '–' : `${markout.toFixed(1)}bps`}`,
    ...(status.hedge === undefined ? [] : [hedgePart(status.hedge)]),
    ...(status.reference === undefined ? [] : [referencePart(status.reference, decimals)]),
  ].join('  ');
}

/** The hedger's part: hedges sent, the position not yet hedged, and its state when it is not well. */
function hedgePart(hedge: NonNullable<EngineStatus['hedge']>): string {
  const state = hedge.state === 'ok' ? '' : ` ${hedge.state.toUpperCase()}`;
  return `hedges ${hedge.hedgesSent}${hedge.hedgesFailed > 0 ? ` (${hedge.hedgesFailed} failed)` : ''} unhedged ${show(hedge.uncoveredBase, 4)}${state}`;
}

/**
 * The reference market's part: its fair price and basis, our fills' 1 s and 10 s markouts against
 * its mid (on a thin venue the honest ones: the venue's mid is our own quotes), and its state when
 * it is not synchronised.
 */
function referencePart(reference: NonNullable<EngineStatus['reference']>, decimals: number): string {
  const state = reference.state === 'synchronised' ? '' : ` ${reference.state.toUpperCase()}${reference.reason === undefined ? '' : ` (${reference.reason})`}`;
  const [oneSecond, tenSeconds] = reference.markouts.meanBps;
  const markouts = `ref-mo1s ${oneSecond === undefined ? '–' : `${oneSecond.toFixed(1)}bps`} ref-mo10s ${tenSeconds === undefined ? '–' : `${tenSeconds.toFixed(1)}bps`}`;
  return `ref ${show(reference.fair, decimals)} basis ${reference.basisBps === undefined ? '–' : `${reference.basisBps.toFixed(1)}bps`} ${markouts}${state}`;
}

/**
 * The status of an account: a row per pair (as {@link renderStatusLine}), then, with several
 * pairs, the account's row (its pairs' PnL together, what could still fill, and its halt when it
 * halted them). A pair alone shows its own line, as it always has.
 */
export function renderStatusRows(pairs: readonly { readonly pair: string; readonly status: EngineStatus }[], account: AccountSnapshot): string[] {
  const rows = pairs.map(({ pair, status }) => renderStatusLine(status, pair));
  if (pairs.length === 1) return rows;
  const token = account.limitsToken ?? '';
  const halted = account.haltReason === undefined ? 'ok' : `HALTED (${account.haltReason})`;
  const quoting = pairs.filter(({ status }) => status.state === 'quoting').length;
  return [...rows, `account ${halted}  pairs quoting ${quoting}/${pairs.length}  pnl ${show(account.pnlQuote, 4)} ${token}  fills ${pairs.reduce((sum, { status }) => sum + status.pnl.fills, 0)}`];
}

/** The status rows on a TTY, redrawn in place. */
export class StatusRows {
  #drawn = 0;
  constructor(
    private readonly io: { readonly stdout: { write(text: string): unknown } },
    private readonly rows: () => readonly string[],
  ) {}

  draw(): void {
    const rows = this.rows();
    const up = this.#drawn > 1 ? `\x1b[${this.#drawn - 1}F` : '\r';
    this.io.stdout.write(up + rows.map((row) => `\x1b[2K${row}`).join('\n'));
    this.#drawn = rows.length;
  }

  /** The last rows, left on screen. */
  finish(): void {
    this.draw();
    this.io.stdout.write('\n');
  }
}
