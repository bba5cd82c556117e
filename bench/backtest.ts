// `npm run bench -- backtest`: the shared best-of-ml-python history (test/fixtures/reality) replayed through the
// nightly's SQL (`projintel rate --history`, pipeline/lists/replay.ts) BENCH_BACKTEST_RUNS times (3): the replay's
// wall and CPU time (median) and the process's peak RSS; then the backtest of the last replay
// (pipeline/lists/backtest.ts): each figure, its naive baseline and the counts, written to bench/results/backtest.json.
import os from "node:os";
import path from "node:path";
import { writeJsonAtomic } from "../core/files.ts";
import { type BacktestFigure, backtest } from "../pipeline/lists/backtest.ts";
import {
  BACKTEST_LIST,
  BACKTEST_RESULT_FILE,
  BACKTEST_TARGETS,
  type BacktestResult,
} from "../pipeline/lists/backtest-result.ts";
import { replayList } from "../pipeline/lists/replay.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

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
    const replay = await replayList(BACKTEST_LIST.file);
    const used = process.cpuUsage(before);
    wall.push(replay.ms);
    cpu.push(Math.round((used.user + used.system) / 1000));
    try {
      if (run === runs - 1) {
        figures = await backtest(replay.db);
        const { dates, projects, rows } = replay.history;
        result = {
          list: path.relative(ROOT, BACKTEST_LIST.file),
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
      cores: os.availableParallelism(),
    },
    targets: BACKTEST_TARGETS,
    figures,
  };
  await writeJsonAtomic(BACKTEST_RESULT_FILE, out);
  return out;
}
