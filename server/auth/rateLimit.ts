/**
 * A fixed-window counter per key, in memory. Each server process counts on its own: several servers behind one
 * address each allow the full budget (documented in docs/decisions.md).
 */
export interface RateLimitRule {
  /** Attempts (or failures) allowed per window. */
  max: number;
  windowMs: number;
}

export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  constructor(
    readonly rule: RateLimitRule,
    private readonly now: () => number = Date.now,
  ) {}

  private entry(key: string) {
    const t = this.now();
    if (t - this.lastSweep > this.rule.windowMs) {
      for (const [k, v] of this.hits) if (v.resetAt <= t) this.hits.delete(k);
      this.lastSweep = t;
    }
    const e = this.hits.get(key);
    if (!e || e.resetAt <= t) return null;
    return e;
  }

  /** Milliseconds until the key may try again, or 0 when it is under its budget. */
  blockedFor(key: string): number {
    const e = this.entry(key);
    return e && e.count >= this.rule.max ? e.resetAt - this.now() : 0;
  }

  /** Count one attempt. */
  hit(key: string): void {
    const e = this.entry(key);
    if (e) e.count += 1;
    else this.hits.set(key, { count: 1, resetAt: this.now() + this.rule.windowMs });
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  clear(): void {
    this.hits.clear();
  }
}
