// `npm run bench`: the figures the issues ask for, as medians, written to bench/results/<date>.json.
// Usage: npm run bench [-- demo nightly collect faults kill shim quotas query query-attack stalled slow-readers score classify mcp switch year scdiff] (default:
// all but s3-upload, shards, switch and year); BENCH_NIGHTLY_REPOS
// overrides 20,000, BENCH_COLLECT_REPOS 220,000. `reality`: the reality check (bench/reality.ts; BENCH_REALITY_WORLD names a
// scored 220,000-repository warehouse to compare too). `faults` (5% of requests faulted) and `kill` (kill and
// resume a collect): BENCH_FAULT_REPOS, BENCH_KILL_REPOS (20,000), BENCH_FAULT_ROUNDS (3), BENCH_FAULT_HOLD_MS (2,000).
// `alternatives` (pipeline/sql/alternatives.sql over synthetic repositories): BENCH_ALTERNATIVES_REPOS (220,000).
// `scdiff` (the reality list's tier moves against a baseline, bench/scdiff.ts): BENCH_SCDIFF_BASE, a rate --json file
// or a git ref (default the committed bench/results/scdiff-base.jsonl).
// `score` (scoring over 400 nights of history): BENCH_SCORE_REPOS (220,000), BENCH_SCORE_NIGHTS (400). `publish`
// (render a release of that warehouse, serve it against node:http with wrk): BENCH_PUBLISH_REPOS, BENCH_PUBLISH_NIGHTS.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { writeJsonAtomic } from "../core/files.ts";
import { benchAlternatives } from "./alternatives.ts";
import { benchBacktest } from "./backtest.ts";
import { benchClassify } from "./classify.ts";
import { benchCollect } from "./collect.ts";
import { benchCollectFaults } from "./collect-faults.ts";
import { benchCompression } from "./compression.ts";
import { benchFastPath } from "./fast-path.ts";
import { benchKillResume } from "./kill-resume.ts";
import { benchMcp } from "./mcp.ts";
import { benchDemoPipeline, benchFirstAnswer, benchNightly, runDemoPipeline } from "./pipeline.ts";
import { benchPublish } from "./publish.ts";
import { benchQuery } from "./query.ts";
import { benchQueryAttack } from "./query-attack.ts";
import { benchQuotaStores } from "./quota-stores.ts";
import { benchReality } from "./reality.ts";
import { benchReleaseSwitch } from "./release-switch.ts";
import { benchS3Upload } from "./s3-upload.ts";
import { benchScdiff } from "./scdiff.ts";
import { benchScore } from "./score.ts";
import { benchShards } from "./shards.ts";
import { benchShim } from "./shim.ts";
import { benchSlowReaders } from "./slow-readers.ts";
import { benchStalledReaders } from "./stalled.ts";
import { benchYear, benchYearRestore } from "./year.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const wanted = new Set(
  process.argv.slice(2).length
    ? process.argv.slice(2)
    : [
        "demo",
        "first-answer",
        "nightly",
        "collect",
        "faults",
        "kill",
        "shim",
        "quotas",
        "query",
        "score",
        "classify",
        "publish",
        "mcp",
      ],
);
const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
};

function report(name: string, value: unknown) {
  results[name] = value;
  process.stdout.write(`${name}: ${JSON.stringify(value, null, 2)}\n`);
}

if (wanted.has("demo")) report("demo_pipeline", await benchDemoPipeline());
// `first-answer`: `npm start` on a fresh state folder until /api/v1/status answers 200 (what the README quotes)
if (wanted.has("first-answer")) report("first_answer", await benchFirstAnswer());
if (wanted.has("nightly"))
  report("nightly", await benchNightly(Number(process.env.BENCH_NIGHTLY_REPOS ?? 20_000)));
if (wanted.has("collect"))
  report("collect", await benchCollect(Number(process.env.BENCH_COLLECT_REPOS ?? 220_000)));
if (wanted.has("faults"))
  report(
    "faults_5pct",
    await benchCollectFaults(
      Number(process.env.BENCH_FAULT_REPOS ?? 20_000),
      Number(process.env.BENCH_FAULT_ROUNDS ?? 3),
      Number(process.env.BENCH_FAULT_HOLD_MS ?? 2_000),
    ),
  );
if (wanted.has("kill"))
  report("kill_resume", await benchKillResume(Number(process.env.BENCH_KILL_REPOS ?? 20_000)));
if (wanted.has("score"))
  report(
    "score",
    await benchScore(
      Number(process.env.BENCH_SCORE_REPOS ?? 220_000),
      Number(process.env.BENCH_SCORE_NIGHTS ?? 400),
    ),
  );
if (wanted.has("classify")) report("classify", await benchClassify());
if (wanted.has("alternatives")) report("alternatives", await benchAlternatives());
// `backtest` (issue 36): the shared best-of-ml-python history replayed BENCH_BACKTEST_RUNS times (3) through the
// nightly's SQL, then each lifecycle stage against what happened next; also written to bench/results/backtest.json
if (wanted.has("backtest")) report("backtest", await benchBacktest());
if (wanted.has("reality"))
  report(
    "reality",
    await benchReality({
      demoWarehouse: process.env.BENCH_REALITY_DEMO,
      world220k: process.env.BENCH_REALITY_WORLD,
    }),
  );
// `scdiff`: also written whole (every project that moves) to bench/results/scdiff.json
if (wanted.has("scdiff")) report("scdiff", await benchScdiff(process.env.BENCH_SCDIFF_BASE));
// `s3-upload`: a full release and the next night's changes uploaded to s3rver; BENCH_S3_REPOS (3,000, the demo's world)
if (wanted.has("s3-upload"))
  report("s3_upload", await benchS3Upload(Number(process.env.BENCH_S3_REPOS ?? 3_000)));
// `switch`: two shims on a bucket following three next nights (publish to serving), and the simulator's GraphQL batch
if (wanted.has("switch")) report("release_switch", await benchReleaseSwitch());
if (wanted.has("shards"))
  report("shards", await benchShards(Number(process.env.BENCH_SHARDS_REPOS ?? 3_000)));
// `year`: one night job by job over a generated state of BENCH_YEAR_REPOS (220,000) repositories with each of
// BENCH_YEAR_NIGHTS (30,365) nights of history in s3rver: per-stage wall time, transfer and peak memory side by side;
// BENCH_YEAR_BASE keeps the first real night in that folder for the next run
if (wanted.has("year") && process.env.BENCH_YEAR_RESTORE_ONLY === "1")
  report(
    "year_restore",
    await benchYearRestore(
      Number(process.env.BENCH_YEAR_REPOS ?? 220_000),
      (process.env.BENCH_YEAR_NIGHTS ?? "30,90,365").split(",").map(Number),
      process.env.BENCH_YEAR_BASE,
    ),
  );
else if (wanted.has("year"))
  report(
    "year",
    await benchYear(
      Number(process.env.BENCH_YEAR_REPOS ?? 220_000),
      (process.env.BENCH_YEAR_NIGHTS ?? "30,365").split(",").map(Number),
      process.env.BENCH_YEAR_BASE,
    ),
  );
if (wanted.has("publish"))
  report(
    "publish",
    await benchPublish(
      Number(process.env.BENCH_PUBLISH_REPOS ?? 220_000),
      Number(process.env.BENCH_PUBLISH_NIGHTS ?? 400),
    ),
  );
// `query`: POST /api/v1/query per workflow recipe and a runaway query; BENCH_QUERY_STATE names a state folder already
// holding a release (e.g. one published at 220,000 repositories), else the demo's. BENCH_QUERY_RUNS (20) per recipe.
if (wanted.has("query") && process.env.BENCH_QUERY_STATE) {
  const runs = Number(process.env.BENCH_QUERY_RUNS ?? 20);
  report("query", await benchQuery(process.env.BENCH_QUERY_STATE, { runs }));
  wanted.delete("query");
}
// `query-attack`: the issue 35 attack (50 addresses of heavy queries) and a victim's light query, over the state
// folder BENCH_QUERY_STATE names (a release and its public database).
if (wanted.has("query-attack") && process.env.BENCH_QUERY_STATE) {
  report("query_attack", await benchQueryAttack(process.env.BENCH_QUERY_STATE));
  wanted.delete("query-attack");
}
// `stalled`: BENCH_STALLED_STATE names a state folder already holding a release and its public database.
if (wanted.has("stalled") && process.env.BENCH_STALLED_STATE) {
  report("stalled_readers", await benchStalledReaders(process.env.BENCH_STALLED_STATE));
  wanted.delete("stalled");
}
// `slow-readers` (300 MCP callers of one address that never read, issue 35): BENCH_SLOW_STATE names a state folder
// already holding a release and its public database, else the demo's.
if (wanted.has("slow-readers") && process.env.BENCH_SLOW_STATE) {
  report("slow_readers", await benchSlowReaders(process.env.BENCH_SLOW_STATE));
  wanted.delete("slow-readers");
}
// `quotas`: the quota stores against no store; BENCH_QUOTA_STATE names a state folder already holding a release.
if (wanted.has("quotas") && process.env.BENCH_QUOTA_STATE) {
  report("quota_stores", await benchQuotaStores(process.env.BENCH_QUOTA_STATE));
  wanted.delete("quotas");
}
if (["shim", "quotas", "query", "mcp", "stalled", "slow-readers"].some((name) => wanted.has(name))) {
  const state = await mkdtemp(path.join(os.tmpdir(), "projintel-shim-"));
  try {
    const made = await runDemoPipeline(state);
    if (made.exit_code !== 0) throw new Error("could not build a release for the shim benchmark");
    // quotas first: it waits for its shims to exit, so the embedded store's lock is free for the next shim
    if (wanted.has("quotas")) report("quota_stores", await benchQuotaStores(state));
    if (wanted.has("shim")) report("shim_vs_plain", await benchShim(state));
    // keyed and anonymous callers, small and large pages, against node:http (wrk: 1 thread, 50 connections)
    if (wanted.has("shim")) report("fast_path", await benchFastPath(state));
    // the precompressed documents: bytes on the wire per encoding, Brotli throughput against node:http
    if (wanted.has("shim")) report("compression", await benchCompression(state));
    if (wanted.has("query")) report("query", await benchQuery(state));
    // 12 clients holding the largest answer unread, through POST /api/v1/query and MCP run_query: the shim's memory
    if (wanted.has("query") || wanted.has("stalled"))
      report("stalled_readers", await benchStalledReaders(state));
    if (wanted.has("mcp")) report("mcp", await benchMcp(state));
    if (wanted.has("slow-readers")) report("slow_readers", await benchSlowReaders(state));
  } finally {
    await rm(state, { recursive: true, force: true });
  }
}

// A day's file gathers every benchmark run that day, the latest run of each winning.
const file = path.join(ROOT, "bench", "results", `${new Date().toISOString().slice(0, 10)}.json`);
const earlier = await readFile(file, "utf8").then(JSON.parse, () => ({}));
await writeJsonAtomic(file, { ...earlier, ...results });
process.stdout.write(`results written to ${path.relative(ROOT, file)}\n`);
