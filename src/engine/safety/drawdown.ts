/** The drawdown kill switch's arithmetic: tracks the PnL peak and trips when the fall from it passes the limit. */
export class DrawdownGuard {
  private peak: number | undefined;

  /** @param maxDrawdownQuote limit in quote tokens; 0 = off. */
  constructor(private maxDrawdownQuote: number) {}

  /** Replaces the limit (an `auto` limit resolves once the first fair price is known). */
  setLimit(maxDrawdownQuote: number): void {
    this.maxDrawdownQuote = maxDrawdownQuote;
  }

  /** The limit in quote tokens; 0 = off. */
  limit(): number {
    return this.maxDrawdownQuote;
  }

  /** Feeds the latest total PnL; returns the drawdown if the limit is breached. */
  observe(totalPnl: number): number | undefined {
    if (this.peak === undefined || totalPnl > this.peak) this.peak = totalPnl;
    const drawdown = this.peak - totalPnl;
    if (this.maxDrawdownQuote > 0 && drawdown >= this.maxDrawdownQuote) return drawdown;
    return undefined;
  }

  /** Current drawdown from the peak (0 before any observation). */
  current(totalPnl: number): number {
    return this.peak === undefined ? 0 : Math.max(0, this.peak - totalPnl);
  }
}
