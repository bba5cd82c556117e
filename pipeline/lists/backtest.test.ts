// The backtest as checks: bench/results/backtest.json (`npm run bench -- backtest`: the whole shared best-of-ml-python
// history replayed, minutes) meets issue 36's targets and is exactly what the methodology quotes; and a ten-night slice
// of the same history (test/fixtures/reality/best-of-ml-python-history-sample.csv, seconds) replays to exact stages.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { methodologyDocument } from "../methodology-doc.ts";
import {
  BACKTEST_LIST,
  BACKTEST_TARGETS,
  type BacktestResult,
  backtestSection,
  readBacktest,
} from "./backtest-result.ts";
import {
  type ReplayRow,
  type ReplayTransition,
  replayList,
  replayRows,
  replayTransitions,
} from "./replay.ts";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const SAMPLE = path.join(ROOT, "test", "fixtures", "reality", "best-of-ml-python-history-sample.csv");

describe("the backtest of best-of-ml-python's history (bench/results/backtest.json)", () => {
  const stored: BacktestResult = readBacktest();
  const figure = (name: keyof typeof BACKTEST_TARGETS) => {
    const f = stored.figures.find((x) => x.figure === name);
    if (!f) throw new Error(`backtest.json has no figure ${name}: run npm run bench -- backtest`);
    return f;
  };

  it("replayed the whole shared history: 190 dates from 2020-11-30 to 2025-06-26", () => {
    expect(stored.list).toBe(path.relative(ROOT, BACKTEST_LIST.file));
    expect(stored.dates).toEqual({ first: "2020-11-30", last: "2025-06-26", count: 190 });
    expect(stored.projects).toBe(523);
    expect(stored.rows).toBe(78_630);
    expect(stored.targets).toEqual(BACKTEST_TARGETS);
  });

  it("meets every target, each figure its counts' share", () => {
    for (const name of Object.keys(BACKTEST_TARGETS) as (keyof typeof BACKTEST_TARGETS)[]) {
      const f = figure(name);
      const scale = name === "changes_per_project_year" ? 365.25 : 1;
      expect(f.value, name).toBeCloseTo((scale * f.hits) / f.n, 3);
      expect(f.naive_value, name).toBeCloseTo((scale * f.naive_hits) / f.naive_n, 3);
      expect(f.meets_target, name).toBe(true);
    }
    expect(figure("not_revived").value).toBeGreaterThanOrEqual(BACKTEST_TARGETS.not_revived.at_least);
    expect(figure("outgrew_median").value).toBeGreaterThanOrEqual(BACKTEST_TARGETS.outgrew_median.at_least);
    expect(figure("flip_back").value).toBeLessThanOrEqual(BACKTEST_TARGETS.flip_back.at_most);
    expect(figure("changes_per_project_year").value).toBeLessThanOrEqual(
      BACKTEST_TARGETS.changes_per_project_year.at_most,
    );
    // enough judged for the shares to mean something
    expect(figure("not_revived").n).toBeGreaterThan(1000);
    expect(figure("outgrew_median").n).toBeGreaterThan(30);
    expect(figure("flip_back").n).toBeGreaterThan(500);
  });

  it("is what the methodology quotes: /api/v1/methodology's backtest and docs/methodology.md", () => {
    const published = methodologyDocument().backtest;
    expect(published).toEqual(backtestSection(stored));
    const notRevived = figure("not_revived");
    const share = `${((100 * notRevived.hits) / notRevived.n).toFixed(1)}%`;
    expect(published.figures[0]?.value).toBe(
      `${share} (${notRevived.hits.toLocaleString("en-US")} of ${notRevived.n.toLocaleString("en-US")})`,
    );
    expect(published.summary).toContain(
      `${stored.dates.count} dates the list recorded from 2020-11-30 to 2025-06-26`,
    );
    const markdown = readFileSync(path.join(ROOT, "docs", "methodology.md"), "utf8");
    for (const f of published.figures)
      expect(markdown).toContain(`| ${f.figure} | ${f.value} | ${f.naive} | ${f.bar} |`);
    expect(markdown).toContain(published.replay);
  });
});

describe("a ten-night slice of the history replayed (four projects, 2025-04-17 to 2025-06-26)", () => {
  let rows: ReplayRow[];
  let changes: ReplayTransition[];
  beforeAll(async () => {
    const replay = await replayList(SAMPLE);
    try {
      rows = await replayRows(replay.db);
      changes = await replayTransitions(replay.db);
    } finally {
      replay.db.close();
    }
  }, 120_000);

  const stages = (name: string) => rows.filter((r) => r.full_name === name).map((r) => r.lifecycle_stage);

  it("gives each project its stage on each date", () => {
    expect(EXPECTED_STAGES).toEqual(
      Object.fromEntries(Object.keys(EXPECTED_STAGES).map((name) => [name, stages(name)])),
    );
  });

  it("records each change of stage once, a rename's under its latest name", () => {
    expect(changes).toEqual(EXPECTED_CHANGES);
  });

  it("reads the 30-day star window once 30 days of counts exist, scaled between weekly counts", () => {
    // 2025-04-17 is the first date: the window is known from 2025-05-22 (35 days on); 2025-05-01 is missing
    const litellm = rows.filter((r) => r.full_name === "BerriAI/litellm");
    expect(litellm.map((r) => r.stars_30d_delta)).toEqual([
      null,
      null,
      null,
      null,
      1838,
      1783,
      1648,
      1527,
      1402,
      1326,
    ]);
    expect(rows.filter((r) => r.full_name === "apache/mxnet").map((r) => r.quality_tier)).toEqual(
      ten("experimental"),
    );
  });
});

const ten = (stage: string) => Array.from({ length: 10 }, () => stage);
/**
 * mxnet (apache/incubator-mxnet, which the list knew had moved: one project, its latest name) last pushed on
 * 2023-01-26 and nni on 2023-10-26: more than dormant_enter_days before 2025-04-17, dormant throughout; litellm and
 * ChatterBot (pushing within days) established, litellm's 1,300-1,840 stars a month on 23,000 short of growing's 10%.
 */
const EXPECTED_STAGES: Record<string, string[]> = {
  "BerriAI/litellm": ten("established"),
  "apache/mxnet": ten("dormant"),
  "gunthercox/ChatterBot": ten("established"),
  "microsoft/nni": ten("dormant"),
};
const EXPECTED_CHANGES: ReplayTransition[] = [
  { full_name: "BerriAI/litellm", date: "2025-04-17", from_stage: null, to_stage: "established" },
  { full_name: "apache/mxnet", date: "2025-04-17", from_stage: null, to_stage: "dormant" },
  { full_name: "gunthercox/ChatterBot", date: "2025-04-17", from_stage: null, to_stage: "established" },
  { full_name: "microsoft/nni", date: "2025-04-17", from_stage: null, to_stage: "dormant" },
];
