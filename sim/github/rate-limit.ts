// GitHub's primary GraphQL budget: points per token per hour, the window starting at the token's first
// request and following real wall time (not the sim date), so a waiting client sees its budget come back.

export interface Budget {
  limit: number;
  used: number;
  remaining: number;
  /** Epoch seconds at which the window resets. */
  reset: number;
}

export interface RateLimiter {
  /** The token's budget now, without charging. */
  peek(token: string): Budget;
  /** Charges `points` to the token and returns the budget after the charge. */
  charge(token: string, points: number): Budget;
  /** Forgets every window: the simulated clock moved on a day, so every real hour since has passed too. */
  clear(): void;
}

export interface RateLimiterOptions {
  pointsPerHour?: number;
  windowSeconds?: number;
  /** Wall clock in milliseconds; tests pass a fake. */
  now?: () => number;
}

export const GRAPHQL_POINTS_PER_HOUR = 5_000;

export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const limit = options.pointsPerHour ?? GRAPHQL_POINTS_PER_HOUR;
  const windowSeconds = options.windowSeconds ?? 3_600;
  const now = options.now ?? Date.now;
  const windows = new Map<string, { used: number; reset: number }>();

  const current = (token: string) => {
    const seconds = Math.floor(now() / 1000);
    let window = windows.get(token);
    if (!window || seconds >= window.reset) {
      window = { used: 0, reset: seconds + windowSeconds };
      windows.set(token, window);
    }
    return window;
  };
  const view = (window: { used: number; reset: number }): Budget => ({
    limit,
    used: window.used,
    remaining: Math.max(0, limit - window.used),
    reset: window.reset,
  });
  return {
    peek: (token) => view(current(token)),
    charge: (token, points) => {
      const window = current(token);
      window.used += points;
      return view(window);
    },
    clear: () => windows.clear(),
  };
}
