// How many unexpected exits the sidecar may have within a sliding window
// before the manager gives up restarting it. Owned by one SidecarManager.
export class CrashBudget {
  private crashes: number[] = [];

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a crash; returns the number of crashes inside the window. */
  record(): number {
    const t = this.now();
    this.crashes = this.crashes.filter((c) => t - c < this.windowMs);
    this.crashes.push(t);
    return this.crashes.length;
  }

  /** True while another restart is allowed. */
  allows(count: number): boolean {
    return count <= this.max;
  }

  reset(): void {
    this.crashes = [];
  }
}

/** Exponential backoff: 500 ms, 1 s, 2 s, 4 s, capped at 8 s. */
export function defaultBackoff(attempt: number): number {
  return Math.min(500 * 2 ** Math.max(attempt - 1, 0), 8000);
}
