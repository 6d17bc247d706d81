/**
 * The reference market's touch as the venue's agents watch it, in the venue's price ticks: what
 * the background maker re-quotes around and what the arbitrageurs compare our quotes with. Only a
 * two-sided touch counts, and only a moved one wakes the agents.
 */
export class ReferenceTouch {
  /** Best bid and ask, ticks (meaningful while `isSet`). */
  bid = 0;
  ask = 0;
  /** False before the first two-sided touch and while the reference shows none. */
  isSet = false;

  /**
   * Takes the reference's touch now: true when it is two-sided and moved (the agents act on it);
   * false when it is one-sided or crossed (no touch now) or the one already held.
   */
  update(bid: number | undefined, ask: number | undefined): boolean {
    if (bid === undefined || ask === undefined || !(bid > 0) || bid >= ask) {
      this.isSet = false;
      return false;
    }
    if (this.isSet && bid === this.bid && ask === this.ask) return false;
    this.isSet = true;
    this.bid = bid;
    this.ask = ask;
    return true;
  }
}
