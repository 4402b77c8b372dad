/**
 * A token bucket: holds at most `burst` tokens, refilled at `perSecond`; `take(cost)` spends them or
 * says no. Used per ws client for incoming messages, resyncs and the error replies sent back, and per
 * remote address for ws upgrades.
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

  /** `startTokens`: the fill to start with (default the burst), e.g. what a previous connection left. */
  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
    startTokens: number = limit.burst,
  ) {
    this.tokens = Math.max(0, Math.min(limit.burst, startTokens));
    this.lastMs = now();
  }

  /** Tokens there are now (refilled up to the burst), nothing spent. */
  available(): number {
    const t = this.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((t - this.lastMs) / 1000) * this.limit.perSecond);
    this.lastMs = t;
    return this.tokens;
  }

  /** Milliseconds until `cost` tokens are there (0: now). */
  msUntil(cost = 1): number {
    const missing = Math.min(cost, this.limit.burst) - this.available();
    return missing <= 0 ? 0 : Math.ceil((missing / this.limit.perSecond) * 1000);
  }

  /** Whether the bucket is full again (nothing left to remember about its past use). */
  full(): boolean {
    return this.available() >= this.limit.burst;
  }

  /** Spends `cost` tokens when there are that many; false (nothing spent) otherwise. */
  take(cost = 1): boolean {
    this.available();
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}
