/**
 * A token bucket: holds at most `burst` tokens, refilled at `perSecond`; `take(cost)` spends them or
 * says no. Used per ws client for incoming messages and for the error replies sent back.
 */
export interface RateLimit {
  /** Sustained rate, tokens per second. */
  readonly perSecond: number;
  /** Most tokens spent at once (and the starting fill). */
  readonly burst: number;
}

export class TokenBucket {
  private tokens: number;
  private lastMs: number;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = limit.burst;
    this.lastMs = now();
  }

  /** Spends `cost` tokens when there are that many; false (nothing spent) otherwise. */
  take(cost = 1): boolean {
    const t = this.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((t - this.lastMs) / 1000) * this.limit.perSecond);
    this.lastMs = t;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}
