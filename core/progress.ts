// Progress of long work (collecting, rendering, uploading): a throttled structured log line per step,
// so both humans watching a terminal and the nightly CI log can see how far a run has come.
import type { Logger } from "./log.ts";

export interface Progress {
  /** Adds `n` finished units. */
  tick(n?: number): void;
  done(fields?: Record<string, unknown>): void;
}

export function startProgress(
  logger: Logger,
  task: string,
  total: number | undefined,
  options: { everyMs?: number; now?: () => number } = {},
): Progress {
  const everyMs = options.everyMs ?? 2000;
  const now = options.now ?? (() => performance.now());
  const started = now();
  let last = started;
  let finished = 0;
  const fields = () => ({
    task,
    done: finished,
    ...(total === undefined
      ? {}
      : { total, percent: total ? Math.round((finished / total) * 1000) / 10 : 100 }),
    elapsed_ms: Math.round(now() - started),
  });
  logger.info(`${task}: started`, fields());
  return {
    tick(n = 1) {
      finished += n;
      const t = now();
      if (t - last >= everyMs) {
        last = t;
        logger.info(`${task}: progress`, fields());
      }
    },
    done(extra) {
      logger.info(`${task}: done`, { ...fields(), ...extra });
    },
  };
}
