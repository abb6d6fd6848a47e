import type { TokenWithPlan } from './api-token.repository.js';

/**
 * Keeps token lookups off the database on the hot path. Entries (hits and misses) live for `ttlMs`,
 * so a revocation made by another process takes effect within that time; a revocation made through
 * this process evicts at once. Bounded so a flood of random tokens cannot grow memory.
 */
export class TokenCache {
  private readonly entries = new Map<string, { value: TokenWithPlan | null; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(hash: string): TokenWithPlan | null | undefined {
    const hit = this.entries.get(hash);
    if (!hit) return undefined;
    if (hit.expiresAt <= Date.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return hit.value;
  }

  set(hash: string, value: TokenWithPlan | null): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { value, expiresAt: Date.now() + this.ttlMs });
  }

  delete(hash: string): void {
    this.entries.delete(hash);
  }

  /** Plan fields changed (trial, MAC limit): forget every cached token of that workspace. */
  forgetWorkspace(workspaceId: number): void {
    for (const [hash, e] of this.entries) if (e.value?.workspaceId === workspaceId) this.entries.delete(hash);
  }
}
