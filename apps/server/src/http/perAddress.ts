/**
 * Rate-limit state kept per remote address, so that what one connection used is not forgotten when it
 * closes and the same peer connects again (a reconnect used to start with a full budget: 20 clients that
 * reconnected at once sent 90,400 messages in 10 s). Entries that no longer restrict anything (their
 * bucket refilled) are dropped when the map grows, and it never holds more than `maxAddresses`.
 */
import { TokenBucket, type RateLimit } from './tokenBucket.ts';

/** Most addresses remembered; beyond it the oldest entries go first (a peer forgotten starts afresh). */
const DEFAULT_MAX_ADDRESSES = 10_000;

/** The remote address of a socket as a key ('' when the socket no longer knows it). */
export function addressKey(address: string | undefined): string {
  // IPv4 clients of a dual-stack server appear as ::ffff:1.2.3.4: the same peer either way.
  return (address ?? '').replace(/^::ffff:/, '');
}

export class BucketsByAddress {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly limit: RateLimit,
    private readonly maxAddresses = DEFAULT_MAX_ADDRESSES,
    private readonly now: () => number = Date.now,
  ) {}

  /** The address's bucket (a full one for an address not seen or forgotten). */
  bucket(address: string): TokenBucket {
    let b = this.buckets.get(address);
    if (b === undefined) {
      this.prune();
      b = new TokenBucket(this.limit, this.now);
      this.buckets.set(address, b);
    }
    return b;
  }

  /** Tokens the address has now: the burst when it is not remembered. */
  available(address: string): number {
    return this.buckets.get(address)?.available() ?? this.limit.burst;
  }

  /** Remembers that the address has only `tokens` left now (kept when it is lower than what it has). */
  remember(address: string, tokens: number): void {
    if (tokens >= this.available(address)) return;
    this.prune();
    this.buckets.set(address, new TokenBucket(this.limit, this.now, tokens));
  }

  size(): number {
    return this.buckets.size;
  }

  private prune(): void {
    if (this.buckets.size < this.maxAddresses) return;
    for (const [k, b] of this.buckets) if (b.full()) this.buckets.delete(k);
    // Still full of active peers: forget the oldest (a Map iterates in insertion order).
    for (const k of this.buckets.keys()) {
      if (this.buckets.size < this.maxAddresses) break;
      this.buckets.delete(k);
    }
  }
}
