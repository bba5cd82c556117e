// Sharded collection: the same steady night (the second, over the first night's state) collected as 3 shards in 3
// processes side by side vs as 1 shard, each shard with its own fresh GitHub token as the nightly workflow gives them,
// then merged and scored (`score --shards n`). Wall time of the collection (the slowest shard) and of the merge and
// score, and GraphQL points per repository from the merged run report. Medians of `rounds`, each from a copy of the
// same first-night state. BENCH_SHARDS_REPOS sets the world (3,000 by default).
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { RunManifest } from "../nightly/manifest.ts";
import { freshTokens, runCli } from "./children.ts";
import { median } from "./measure.ts";
import { startSim } from "./pipeline.ts";

const FIRST = "2026-11-20";
const NIGHT = "2026-11-21";
/** The simulator computes commit statistics at once: no need for GitHub's pause before asking again. */
const SIM_ENV = { PROJINTEL_GITHUB__STATS_RETRY_MS: "200" };

interface ShardedNight {
  shards: number;
  collect_wall_ms: number;
  merge_score_wall_ms: number;
  repos_refreshed: number;
  github_graphql_points: number;
  points_per_repo: number;
  /** Each shard's points (its own token), in shard order. */
  points_per_shard: number[];
  /**
   * Each shard's own collect time (its report): what separate runners would take, where side by side on one
   * machine the shards share its cores and the simulator's.
   */
  shard_collect_ms: number[];
}

async function check(run: Promise<{ exit_code: number; wall_ms: number }>, what: string) {
  const done = await run;
  if (done.exit_code !== 0) throw new Error(`${what} failed (exit ${done.exit_code}); see its log`);
  return done;
}

/** One night as `count` shards, each from a copy of `base`, side by side; then merged and scored. */
async function shardedNight(sim: string, base: string, work: string, count: number): Promise<ShardedNight> {
  const remote = path.join(work, "remote");
  const log = path.join(work, "log.jsonl");
  const states = Array.from({ length: count }, (_, i) => path.join(work, `shard-${i + 1}`));
  for (const state of [...states, path.join(work, "merge")]) await cp(base, state, { recursive: true });
  const tokens = freshTokens(`shards-${count}`, count);
  const started = performance.now();
  await Promise.all(
    states.map((state, i) =>
      check(
        runCli(
          ["collect", "--shard", `${i + 1}/${count}`, "--remote", remote, "--sim", sim, "--state-dir", state],
          log,
          { ...SIM_ENV, ...tokens, PROJINTEL_LOG_LEVEL: "warn" },
        ),
        `collect shard ${i + 1}/${count}`,
      ),
    ),
  );
  const collectWall = Math.round(performance.now() - started);
  const merge = path.join(work, "merge");
  const scored = await check(
    runCli(
      [
        "score",
        "--shards",
        String(count),
        "--remote",
        remote,
        "--date",
        NIGHT,
        "--state-dir",
        merge,
        "--no-public-db",
      ],
      log,
      { PROJINTEL_LOG_LEVEL: "warn" },
    ),
    `score --shards ${count}`,
  );
  const manifest = JSON.parse(
    await readFile(path.join(merge, "runs", NIGHT, "manifest.json"), "utf8"),
  ) as RunManifest;
  const collect = manifest.collect;
  if (!collect) throw new Error(`score --shards ${count} wrote no collect report`);
  const perShard = await Promise.all(
    states.map(async (_, i) => {
      const done = JSON.parse(
        await readFile(
          path.join(remote, "nights", NIGHT, "shards", `${i + 1}-of-${count}`, "done.json"),
          "utf8",
        ),
      ) as { collect: { github_graphql_points: number; duration_ms: number } };
      return done.collect;
    }),
  );
  return {
    shards: count,
    collect_wall_ms: collectWall,
    merge_score_wall_ms: scored.wall_ms,
    repos_refreshed: collect.repos_refreshed,
    github_graphql_points: collect.github_graphql_points,
    points_per_repo: Math.round((collect.github_graphql_points / collect.repos_refreshed) * 10_000) / 10_000,
    points_per_shard: perShard.map((c) => c.github_graphql_points),
    shard_collect_ms: perShard.map((c) => c.duration_ms),
  };
}

function summarise(runs: ShardedNight[]) {
  return {
    runs,
    median_collect_wall_ms: median(runs.map((r) => r.collect_wall_ms)),
    median_merge_score_wall_ms: median(runs.map((r) => r.merge_score_wall_ms)),
    median_points_per_repo: median(runs.map((r) => r.points_per_repo)),
    median_slowest_shard_ms: median(runs.map((r) => Math.max(...r.shard_collect_ms))),
  };
}

export async function benchShards(repos: number, rounds = 3) {
  const sim = await startSim(repos, FIRST);
  const root = await mkdtemp(path.join(os.tmpdir(), "projintel-shards-"));
  const base = path.join(root, "base");
  const log = path.join(root, "base.jsonl");
  try {
    const env = { ...SIM_ENV, ...freshTokens("shards-base", Math.ceil(repos / 20_000) + 1) };
    await check(
      runCli(["collect", "--sim", sim.url, "--state-dir", base], log, env),
      "the first night's collect",
    );
    await check(
      runCli(["score", "--date", FIRST, "--state-dir", base, "--no-public-db"], log),
      "the first night's score",
    );
    const advanced = await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
    if (!advanced.ok) throw new Error(`the simulator refused to advance: ${advanced.status}`);
    const one: ShardedNight[] = [];
    const three: ShardedNight[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const [count, runs] of [
        [1, one],
        [3, three],
      ] as const) {
        const work = path.join(root, `round-${round}-${count}`);
        const night = await shardedNight(sim.url, base, work, count);
        process.stderr.write(`shards round ${round}, ${count} shard(s): ${JSON.stringify(night)}\n`);
        runs.push(night);
        await rm(work, { recursive: true, force: true });
      }
    }
    const a = summarise(one);
    const b = summarise(three);
    return {
      repos,
      one_shard: a,
      three_shards: b,
      collect_speedup: Math.round((a.median_collect_wall_ms / b.median_collect_wall_ms) * 100) / 100,
    };
  } finally {
    sim.child.kill("SIGTERM");
    await rm(root, { recursive: true, force: true });
  }
}
