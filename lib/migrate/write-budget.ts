// A write-units-per-second budget kept from the capacity DynamoDB reports consuming, not from an
// estimate: a write's cost (its item size, the index entries it moves) is known only afterwards.
// So the budget runs into debt: a write may start while the balance is not negative, and its
// measured units are paid afterwards; the next write waits until the refill covers the debt. Over
// any span the units spent stay within the rate times the span plus one write's cost. Several
// segment workers of one process share one budget.

/** A shared write budget. */
export class WriteBudget {
  private balance = 0;
  private last: number;

  /**
   * @param unitsPerSecond the budget; Infinity for none
   * @param now clock in ms
   * @param wait sleeps this many ms
   */
  constructor(
    public readonly unitsPerSecond: number,
    private readonly now: () => number = Date.now,
    private readonly wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    if (!(unitsPerSecond > 0)) throw new RangeError(`the write budget must be a positive number of units per second, got ${unitsPerSecond}`);
    this.last = now();
  }

  /** Resolves when a write may start. */
  public async acquire(): Promise<void> {
    if (this.unitsPerSecond === Infinity) return;
    for (;;) {
      this.refill();
      if (this.balance >= 0) return;
      await this.wait(Math.ceil((-this.balance / this.unitsPerSecond) * 1000));
    }
  }

  /** Pays the units a write consumed. */
  public spend(units: number): void {
    if (this.unitsPerSecond === Infinity) return;
    this.refill();
    this.balance -= units;
  }

  private refill(): void {
    const t = this.now();
    // Time spent scanning earns nothing: an idle spell is not followed by a burst.
    this.balance = Math.min(0, this.balance + ((t - this.last) / 1000) * this.unitsPerSecond);
    this.last = t;
  }
}
