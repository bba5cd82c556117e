// A sliding-window pacer: at most `limit` starts in any `windowMs`, and at most `concurrent` calls running at
// once. A burst up to the limit goes at once; the next start waits until the oldest start leaves the window.
// Clock and sleep are injected, so tests advance a fake clock instead of waiting.

export interface PacerOptions {
  /** Starts allowed in any window. */
  limit: number;
  windowMs: number;
  /** Calls running at once at most (default: no limit beyond `limit`). */
  concurrent?: number;
  /** Epoch milliseconds. */
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export interface Pacer {
  /** Runs `work` once the window and the concurrency limit allow it; starts are granted in call order. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createPacer(options: PacerOptions): Pacer {
  const { limit, windowMs } = options;
  const concurrent = options.concurrent ?? limit;
  /** Start times still inside the window, oldest first. */
  const starts: number[] = [];
  // The latest instant already slept up to: a clock that did not move during a sleep (a test's frozen
  // clock) still counts the wait as done, so pacing never spins.
  let slept = Number.NEGATIVE_INFINITY;
  let turn: Promise<void> = Promise.resolve();
  let running = 0;
  const waiting: (() => void)[] = [];

  const slot = async (): Promise<void> => {
    for (;;) {
      const now = Math.max(options.now(), slept);
      while (starts.length > 0 && (starts[0] as number) <= now - windowMs) starts.shift();
      if (starts.length < limit) {
        starts.push(now);
        return;
      }
      const until = (starts[0] as number) + windowMs;
      await options.sleep(until - now);
      slept = Math.max(slept, until);
    }
  };

  // A finished call hands its place straight to the next waiter, so a newcomer cannot slip in between.
  const acquire = async () => {
    if (running < concurrent) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  return {
    async run(work) {
      await acquire();
      try {
        // One grant at a time, so waiters leave in call order and a burst cannot overshoot the window.
        const granted = turn.then(slot);
        turn = granted.catch(() => undefined);
        await granted;
        return await work();
      } finally {
        release();
      }
    },
  };
}
