// What the backtest measures and what it found, without the machinery that measures it (pipeline/lists/backtest.ts,
// bench/backtest.ts): the list replayed, the targets, and the result `npm run bench -- backtest` writes to
// bench/results/backtest.json, which the methodology document and /api/v1/methodology quote.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The history replayed: the shared half of best-of-ml-python's weekly exports (test/fixtures/reality/README.md). */
export const BACKTEST_LIST = {
  name: "best-of-ml-python",
  source: "https://github.com/ml-tooling/best-of-ml-python (history/<date>_projects.csv, the shared half)",
  license: "CC-BY-SA-4.0",
  file: path.join(ROOT, "test", "fixtures", "reality", "best-of-ml-python-history-A.csv.gz"),
} as const;

/** Where `npm run bench -- backtest` keeps its result, which the methodology quotes. */
export const BACKTEST_RESULT_FILE = path.join(ROOT, "bench", "results", "backtest.json");

/** The targets issue 36 sets: shares at least (not_revived, outgrew_median) or at most (flip_back, changes). */
export const BACKTEST_TARGETS = {
  not_revived: { at_least: 0.85 },
  outgrew_median: { at_least: 0.85 },
  flip_back: { at_most: 0.02 },
  changes_per_project_year: { at_most: 1.5 },
} as const;

/** Targets of the replay itself: the whole shared history in at most this long and this much memory. */
export const REPLAY_TARGETS = { seconds: 60, rss_bytes: 1024 ** 3 } as const;

export type BacktestFigureName = keyof typeof BACKTEST_TARGETS;

export interface BacktestFigure {
  figure: BacktestFigureName;
  /** The projects (or changes, or project-days) judged, and those that held. */
  n: number;
  hits: number;
  /** hits / n; for changes_per_project_year, changes per 365.25 project-days. */
  value: number | null;
  naive_n: number;
  naive_hits: number;
  naive_value: number | null;
  meets_target: boolean | null;
}

export interface BacktestResult {
  measured_at: string;
  /** The history replayed, relative to the repository. */
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
    /** The machine's cores (os.availableParallelism), shared with whatever else ran. */
    cores: number;
  };
  targets: typeof BACKTEST_TARGETS;
  figures: BacktestFigure[];
}

export function readBacktest(file: string = BACKTEST_RESULT_FILE): BacktestResult {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as BacktestResult;
  } catch (error) {
    throw new Error(
      `Cannot read the backtest ${file}: ${(error as Error).message}. Run \`npm run bench -- backtest\` to measure it.`,
    );
  }
}

/** What each figure counts, as the methodology states it (pipeline/sql/lists/backtest.sql computes them). */
const FIGURE_TEXT: Record<BacktestFigureName, { figure: string; naive: string }> = {
  not_revived: {
    figure:
      "of projects fading or dormant at a quarter, the share not revived a year later (no push in the 90 days before T + 365)",
    naive: "quiet for 120 days at T",
  },
  outgrew_median: {
    figure:
      "of projects growing or launching at a quarter, the share whose stars grew more over the next 182 days than the median tracked project's",
    naive: "grew more than the median over the 182 days before T",
  },
  flip_back: {
    figure: "stage changes re-entering the stage just left within 56 days",
    naive: "the quiet-for-120-days rule applied night by night (fading / active)",
  },
  changes_per_project_year: {
    figure: "stage changes per project-year replayed",
    naive: "the quiet-for-120-days rule's changes",
  },
};

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const count = (x: number) => x.toLocaleString("en-US");

/** A figure's measured value with its counts, as published: "85.3% (1,669 of 1,956)", "0.90 (1,694 changes)". */
export function backtestValue(
  name: BacktestFigureName,
  value: number | null,
  hits: number,
  n: number,
): string {
  if (value === null) return `unknown (nothing to judge: ${count(n)})`;
  return name === "changes_per_project_year"
    ? `${value.toFixed(2)} (${count(hits)} changes over ${count(Math.round(n / 365.25))} project-years)`
    : `${pct(value)} (${count(hits)} of ${count(n)})`;
}

const bar = (name: BacktestFigureName) => {
  const t: { at_least?: number; at_most?: number } = BACKTEST_TARGETS[name];
  const show = (x: number) => (name === "changes_per_project_year" ? x.toFixed(2) : pct(x));
  return t.at_least !== undefined ? `≥ ${show(t.at_least)}` : `≤ ${show(t.at_most ?? 0)}`;
};

/** The backtest as the methodology states it: the list, the dates, the size, each figure beside its naive rule. */
export function backtestSection(result: BacktestResult = readBacktest()) {
  const r = result.replay;
  return {
    list: { name: BACKTEST_LIST.name, source: BACKTEST_LIST.source, license: BACKTEST_LIST.license },
    dates: result.dates,
    projects: result.projects,
    rows: result.rows,
    measured_at: result.measured_at.slice(0, 10),
    summary: `${count(result.projects)} real projects of ${BACKTEST_LIST.name} (${BACKTEST_LIST.source}, ${BACKTEST_LIST.license}) over the ${result.dates.count} dates the list recorded from ${result.dates.first} to ${result.dates.last} (${count(result.rows)} rows), replayed through the nightly's own SQL by \`projintel rate --history\`. At every quarter from 2021 to 2024 each project's stage is compared with what happened next; each figure stands beside a naive rule computed from the same rows in the same run. The list's other half is kept apart to check the rules were not tuned to this one.`,
    figures: result.figures.map((f) => ({
      figure: FIGURE_TEXT[f.figure].figure,
      value: backtestValue(f.figure, f.value, f.hits, f.n),
      naive: `${FIGURE_TEXT[f.figure].naive}: ${backtestValue(f.figure, f.naive_value, f.naive_hits, f.naive_n)}`,
      bar: bar(f.figure),
    })),
    replay: `The whole replay took ${(r.median_ms / 1000).toFixed(0)} s (${(r.median_cpu_ms / 1000).toFixed(0)} s of CPU; median of ${r.runs} run${r.runs === 1 ? "" : "s"} at a load average of ${r.load_average_1m} on ${r.cores} cores) and at most ${Math.round(r.peak_rss_bytes / 1024 ** 2)} MiB (targets: ${REPLAY_TARGETS.seconds} s, ${REPLAY_TARGETS.rss_bytes / 1024 ** 3} GiB).`,
  };
}
