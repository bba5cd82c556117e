// `npm run bench -- backtest`: the shared best-of-ml-python history (test/fixtures/reality) replayed through the
// nightly's SQL (`projintel rate --history`, pipeline/lists/replay.ts) BENCH_BACKTEST_RUNS times (3): the replay's
// wall and CPU time (median) and the process's peak RSS; then the backtest of the last replay
// (pipeline/lists/backtest.ts): each figure, its naive baseline and the counts, written to bench/results/backtest.json.
import os from "node:os";
import path from "node:path";
import { writeJsonAtomic } from "../core/files.ts";
import { BACKTEST_TARGETS, type BacktestFigure, backtest } from "../pipeline/lists/backtest.ts";
import { replayList } from "../pipeline/lists/replay.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
export const BACKTEST_LIST = path.join(
  ROOT,
  "test",
  "fixtures",
  "reality",
  "best-of-ml-python-history-A.csv.gz",
);
export const BACKTEST_FILE = path.join(ROOT, "bench", "results", "backtest.json");
/** Targets of the replay itself (issue 36): the whole shared history. */
export const REPLAY_TARGETS = { seconds: 60, rss_bytes: 1024 ** 3 } as const;

export interface BacktestResult {
  measured_at: string;
  list: string;
  dates: { first: string; last: string; count: number };
  projects: number;
  rows: number;
  replay: {
    runs: number;
    median_ms: number;
    median_cpu_ms: number;
    peak_rss_bytes: number;
    load_average_1m: number;
  };
  targets: typeof BACKTEST_TARGETS;
  figures: BacktestFigure[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

export async function benchBacktest(
  runs = Number(process.env.BENCH_BACKTEST_RUNS ?? 3),
): Promise<BacktestResult> {
  const wall: number[] = [];
  const cpu: number[] = [];
  let figures: BacktestFigure[] = [];
  let result: Omit<BacktestResult, "replay" | "figures" | "targets" | "measured_at"> | null = null;
  for (let run = 0; run < runs; run++) {
    const before = process.cpuUsage();
    const replay = await replayList(BACKTEST_LIST);
    const used = process.cpuUsage(before);
    wall.push(replay.ms);
    cpu.push(Math.round((used.user + used.system) / 1000));
    try {
      if (run === runs - 1) {
        figures = await backtest(replay.db);
        const { dates, projects, rows } = replay.history;
        result = {
          list: path.relative(ROOT, BACKTEST_LIST),
          dates: { first: dates[0] as string, last: dates.at(-1) as string, count: dates.length },
          projects,
          rows,
        };
      }
    } finally {
      replay.db.close();
    }
  }
  if (!result) throw new Error("benchBacktest: no run");
  const out: BacktestResult = {
    measured_at: new Date().toISOString(),
    ...result,
    replay: {
      runs,
      median_ms: median(wall),
      median_cpu_ms: median(cpu),
      peak_rss_bytes: process.resourceUsage().maxRSS * 1024,
      load_average_1m: Math.round((os.loadavg()[0] ?? 0) * 10) / 10,
    },
    targets: BACKTEST_TARGETS,
    figures,
  };
  await writeJsonAtomic(BACKTEST_FILE, out);
  return out;
}
