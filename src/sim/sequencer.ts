/**
 * Keeps requests in arrival order although their signatures are checked in parallel: each request
 * takes a ticket when it arrives, and its state-changing step runs only after every earlier
 * ticket's step ran (or was abandoned). So a cancel sent right after its order is never
 * processed before it, and balance checks see requests in the order users sent them.
 */
export class Sequencer {
  private nextTicket = 0;
  private nextToRun = 0;
  private readonly waiting = new Map<number, () => void>();

  /** A ticket for a request that just arrived. */
  take(): number {
    return this.nextTicket++;
  }

  /**
   * Runs `step` in ticket order and resolves with its result (or rejects with its error).
   * Every ticket must be passed here exactly once, with a no-op step if the request failed
   * before its state-changing step; `abandon` does that.
   */
  run<T>(ticket: number, step: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(ticket, () => {
        try {
          resolve(step());
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      this.release();
    });
  }

  /** Gives up a ticket whose request will not reach its step. */
  abandon(ticket: number): void {
    this.waiting.set(ticket, () => undefined);
    this.release();
  }

  private release(): void {
    for (;;) {
      const step = this.waiting.get(this.nextToRun);
      if (step === undefined) return;
      this.waiting.delete(this.nextToRun);
      this.nextToRun++;
      step();
    }
  }
}
