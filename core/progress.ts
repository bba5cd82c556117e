// Progress of long work (collecting, rendering, uploading): a throttled structured log line per step, so the
// nightly CI log can see how far a run has come; and for people at a terminal, one plain line per finished stage.
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

/** Width of the stage column of a stage line, so the counts of consecutive lines start under each other. */
const STAGE_WIDTH = 10;

/** A whole number as people read it: 2722 → "2,722". */
export const formatCount = (n: number) => n.toLocaleString("en-US");

/** Elapsed milliseconds in seconds with one decimal: 2345 → "2.3 s". */
export const formatSeconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One stage line: `  publish   1,430 files of release … (2.3 s)`; the time is left out when not given. */
export function formatStageLine(stage: string, text: string, ms?: number): string {
  const time = ms === undefined ? "" : ` (${formatSeconds(ms)})`;
  return `  ${stage.padEnd(STAGE_WIDTH)}${text}${time}\n`;
}

/** Writes stage lines to a terminal stream (stdout of `projintel demo`); the structured log goes elsewhere. */
export function stageLines(out: { write(text: string): unknown }) {
  return (stage: string, text: string, ms?: number) => {
    out.write(formatStageLine(stage, text, ms));
  };
}

export type StageLine = ReturnType<typeof stageLines>;
