// A year in production: a state of `repos` repositories with `nights` nights of history in an s3rver bucket, then one
// night run job by job as .github/workflows/nightly.yml runs it, each job on an empty folder: state restore, collection
// in 3 shards (the simulator), merge and score (history and public database included), state push, publish (the
// restore is measured in the first collect job and the score job; the other shards copy the first one's). Each
// stage's wall time and peak memory (GNU time) and what it moved to and from the bucket (a metering proxy in front of
// s3rver). The state is generated, not replayed: one real night of the simulated world is collected and scored, and
// its history files are copied to every earlier night (the same bytes a stable world would give), its run report too;
// the warehouse snapshot a year leaves (pipeline/state/snapshot.ts) is generated in SQL from that night's warehouse —
// its rows copied to every earlier night the snapshot keeps — and dated SNAPSHOT_EVERY_NIGHTS - 1 nights before the
// last, so the restore applies the most nights a restore ever does and the night measured writes the next snapshot.
// Every job pulls with --recent, as the workflow does (the snapshot and the nights after it); the score job's publish
// copies the older nights and closed months from the previous release and extends its packed current month.
import { cp, link, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { addDays, isoDay } from "../core/clock.ts";
import { loadConfig } from "../core/config.ts";
import { openDb } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { latestPublicDb, partBeside, publicDbPartKey, readManifestBeside } from "../core/public-db.ts";
import type { RunManifest } from "../nightly/manifest.ts";
import {
  CONTRIBUTOR_MIN_STARS,
  type ContributorCandidate,
  contributorFloor,
  simulateRotation,
} from "../pipeline/schedule/contributors.ts";
import { RAW_TABLES, retainCandidatesAsOfLatest, SNAPSHOT_DAYS } from "../pipeline/score.ts";
import { CONTRIBUTOR_BUDGET_SHARE } from "../pipeline/sources/github/contributors.ts";
import { PACKAGE_WINDOW_DAYS, SNAPSHOT_EVERY_NIGHTS, writeSnapshot } from "../pipeline/state/snapshot.ts";
import { pushState } from "../pipeline/state/sync.ts";
import { startS3Meter, type Transfer } from "../test/s3-meter.ts";
import { startS3Server } from "../test/s3-server.ts";
import { freshTokens, runCli } from "./children.ts";
import { measureCommand, median } from "./measure.ts";
import { CLI, startSim } from "./pipeline.ts";
import { measureSwitch, nightlyPartFigures } from "./public-db-switch.ts";

const FIRST = "2026-11-20";
const NIGHT = isoDay(addDays(new Date(`${FIRST}T00:00:00Z`), 1));
const SHARDS = 3;
const BUCKET = "year";
const PREFIX = "projintel";
/** The simulator computes commit statistics at once: no need for GitHub's pause before asking again. */
const SIM_ENV = { PROJINTEL_GITHUB__STATS_RETRY_MS: "200" };
const MIB = 1024 * 1024;
/** Restores measured per history length (an empty folder each time); the median is reported. */
const RESTORE_RUNS = 3;
/** Each job's restore, as the workflow runs it: a collect job restores only the raw tables collecting reads. */
const JOB_PULLS = {
  collect: ["state", "pull", "--recent", "--raw-only"],
  score: ["state", "pull", "--recent"],
} as const satisfies Record<string, readonly string[]>;

export interface StageFigures extends Transfer {
  stage: string;
  wall_ms: number;
  peak_rss_mib: number;
}

/** The command's exit, or an error quoting the end of its log (the run's folder goes when the bench stops). */
async function check<T extends { exit_code: number }>(
  run: Promise<T>,
  what: string,
  log?: string,
): Promise<T> {
  const done = await run;
  if (done.exit_code === 0) return done;
  const tail =
    log === undefined ? "" : (await readFile(log, "utf8").catch(() => "")).split("\n").slice(-15).join("\n");
  throw new Error(`${what} failed (exit ${done.exit_code})${tail ? `; the end of its log:\n${tail}` : ""}`);
}

/** One real night of the world, in `base`: collected, scored, its history written (`nightly`, published locally). */
async function firstNight(sim: string, base: string, log: string, repos: number): Promise<void> {
  const env = { ...SIM_ENV, ...freshTokens("year-base", Math.ceil(repos / 20_000) + 1) };
  await check(
    runCli(["nightly", "--sim", sim, "--state-dir", base, "--date", FIRST], log, env),
    "first night",
    log,
  );
}

/** Copies the night's history files and run report to the `nights - 1` nights before it (hard links: same bytes). */
async function fillYear(base: string, nights: number): Promise<number> {
  let files = 0;
  const history = path.join(base, "history");
  const nightFolders: string[] = [];
  for (const entry of await readdir(history, { recursive: true })) {
    if (entry.endsWith(`=${FIRST}`)) nightFolders.push(entry);
  }
  for (let k = 1; k < nights; k++) {
    const day = isoDay(addDays(new Date(`${FIRST}T00:00:00Z`), -k));
    for (const folder of nightFolders) {
      const target = path.join(history, folder.replace(`=${FIRST}`, `=${day}`));
      await mkdir(target, { recursive: true });
      await link(path.join(history, folder, "data.parquet"), path.join(target, "data.parquet"));
      files++;
    }
    await mkdir(path.join(base, "runs", day), { recursive: true });
    await link(
      path.join(base, "runs", FIRST, "manifest.json"),
      path.join(base, "runs", day, "manifest.json"),
    );
  }
  return files;
}

/**
 * The warehouse snapshot `nights` nights leave, written into `state` (replacing the one night's): the night's
 * warehouse with every dated row copied to each earlier night (up to `nights` - 1 and the 90 nights of snapshots a
 * warehouse keeps; the raw tables are trimmed by writeSnapshot as always), then cut at the snapshot's night.
 */
async function generateSnapshot(state: string, nights: number): Promise<{ night: string; bytes: number }> {
  const night = isoDay(addDays(new Date(`${FIRST}T00:00:00Z`), -(SNAPSHOT_EVERY_NIGHTS - 1)));
  const file = path.join(state, "year-snapshot.duckdb");
  await cp(path.join(state, "warehouse.duckdb"), file);
  const db = await openDb(file);
  try {
    // each nightly table and the nights of it a year leaves in the warehouse: the raw tables (the snapshot keeps at
    // most PACKAGE_WINDOW_DAYS of them), 90 nights of snapshots and candidate stages, every night's contributor counts;
    // not the tables whose rows are not one set a night (stargazer days, posts, papers, gone, transitions, briefings)
    const nightly: [string, string, number][] = [
      ...RAW_TABLES.filter(
        (t) => !["raw_github_stars", "raw_github_gone", "raw_hn_posts", "raw_arxiv_papers"].includes(t),
      ).map((t): [string, string, number] => [t, "run_date", Math.min(nights, PACKAGE_WINDOW_DAYS + 1)]),
      ["snapshots", "date", Math.min(nights, SNAPSHOT_DAYS)],
      ["lifecycle_candidates", "date", Math.min(nights, SNAPSHOT_DAYS)],
      ["contributors", "date", nights],
    ];
    for (const [table, column, copies] of nightly) {
      // a night earlier, a repository had a few stars fewer (0 to 4 a night, by repository): not the same bytes
      const stars = (
        await db.all<{ n: number }>(
          "SELECT count(*)::INTEGER AS n FROM duckdb_columns() WHERE table_name = $1 AND column_name = 'stars'",
          [table],
        )
      )[0]?.n
        ? ", greatest(t.stars - r.k * (hash(t.node_id) % 5)::INTEGER, 0) AS stars"
        : "";
      await db.run(
        `INSERT INTO ${table} SELECT t.* REPLACE (t.${column} - r.k::INTEGER AS ${column}${stars})
         FROM ${table} t, range(1, ${copies}) AS r(k) WHERE t.${column} = DATE '${FIRST}'`,
      );
    }
    // a year's releases were first seen over the year, not all on the one real night (releases.sql reads the raw rows
    // after the latest, and so does a snapshot keep them)
    await db.run(
      `UPDATE releases SET first_seen = DATE '${night}' - (hash(full_name, source, version) % ${Math.min(nights, SNAPSHOT_DAYS)})::INTEGER`,
    );
    // the snapshot's night is the last the warehouse has seen: nothing dated after it
    const cut: [string, string][] = [
      ...RAW_TABLES.map((t): [string, string] => [t, "run_date"]),
      ["snapshots", "date"],
      ["lifecycle_candidates", "date"],
      ["transitions", "date"],
      ["contributors", "date"],
      ["releases", "first_seen"],
    ];
    for (const [table, column] of cut) await db.run(`DELETE FROM ${table} WHERE ${column} > DATE '${night}'`);
    // the candidate stages scoring leaves (a week of nights, and of older ones what a later night reads)
    await retainCandidatesAsOfLatest(db);
    const report = await writeSnapshot({ db, stateRoot: state, night, logger: silentLogger });
    return { night, bytes: report.bytes };
  } finally {
    db.close();
    await rm(file, { force: true });
  }
}

/**
 * The first night in `base`, unless a finished one is there already (BENCH_YEAR_BASE keeps it between runs: at
 * 220,000 repositories it takes a quarter of an hour). The simulator's world depends only on its seed and date.
 */
async function baseNight(sim: string, base: string, log: string, repos: number): Promise<void> {
  const done = path.join(base, "year-base.json");
  const kept = await readFile(done, "utf8").catch(() => undefined);
  if (kept !== undefined && (JSON.parse(kept) as { repos: number }).repos === repos) return;
  await rm(base, { recursive: true, force: true });
  await firstNight(sim, base, log, repos);
  await writeFile(done, JSON.stringify({ repos, night: FIRST }));
}

/** One real night (shared by every history length), then each history length's bucket and night. */
export async function benchYear(repos: number, nightsList: readonly number[], keptBase?: string) {
  const root = await mkdtemp(path.join(os.tmpdir(), "projintel-year-"));
  const sim = await startSim(repos, FIRST);
  try {
    const started = performance.now();
    const base = keptBase ?? path.join(root, "base");
    await baseNight(sim.url, base, path.join(root, "base.jsonl"), repos);
    const first_night_s = Math.round((performance.now() - started) / 1000);
    const advanced = await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
    if (!advanced.ok) throw new Error(`the simulator refused to advance: ${advanced.status}`);
    const runs = [];
    for (const nights of nightsList) runs.push(await yearNight(sim.url, base, repos, nights));
    return { repos, first_night_s, runs, table: sideBySide(runs) };
  } finally {
    sim.child.kill("SIGTERM");
    await rm(root, { recursive: true, force: true });
  }
}

/**
 * Only the restores (each job's `state pull` on an empty folder, RESTORE_RUNS times) over each history length, after
 * the same generation: BENCH_YEAR_RESTORE_ONLY=1, to compare lengths past the 90-night windows quickly.
 */
export async function benchYearRestore(repos: number, nightsList: readonly number[], keptBase?: string) {
  const root = await mkdtemp(path.join(os.tmpdir(), "projintel-year-restore-"));
  const sim = await startSim(repos, FIRST);
  try {
    const base = keptBase ?? path.join(root, "base");
    await baseNight(sim.url, base, path.join(root, "base.jsonl"), repos);
    const runs = [];
    for (const nights of nightsList) {
      const s3 = await startS3Server();
      const meter = await startS3Meter(s3.url);
      try {
        await s3.bucket(BUCKET);
        const state = path.join(root, `generated-${nights}`);
        await cp(base, state, { recursive: true });
        await fillYear(state, nights);
        const snapshot = await generateSnapshot(state, nights);
        await pushState({
          storage: s3.storage(BUCKET, PREFIX),
          stateRoot: state,
          logger: silentLogger,
          concurrency: 16,
        });
        await rm(state, { recursive: true, force: true });
        const env = {
          ...s3.env,
          AWS_ENDPOINT_URL_S3: meter.url,
          PROJINTEL_REMOTE: `s3://${BUCKET}/${PREFIX}`,
          PROJINTEL_LOG_LEVEL: "warn",
        };
        for (const [job, pull] of Object.entries(JOB_PULLS)) {
          const walls: number[] = [];
          let transfer: Transfer | undefined;
          let rss = 0;
          for (let i = 0; i < RESTORE_RUNS; i++) {
            const dir = path.join(root, `restore-${nights}`);
            await rm(dir, { recursive: true, force: true });
            meter.take();
            const run = await measureCommand(process.execPath, [CLI, ...pull, "--state-dir", dir], { env });
            if (run.exit_code !== 0) throw new Error(`${pull.join(" ")} exited ${run.exit_code}`);
            walls.push(run.wall_ms);
            transfer = meter.take();
            rss = Math.max(rss, run.peak_rss_mib);
          }
          const figures = {
            nights,
            job,
            snapshot_bytes: snapshot.bytes,
            wall_ms: median(walls),
            walls_ms: walls,
            peak_rss_mib: rss,
            ...transfer,
          };
          process.stderr.write(`  ${JSON.stringify(figures)}\n`);
          runs.push(figures);
        }
      } finally {
        await meter.close();
        await s3.stop();
      }
    }
    return { repos, runs };
  } finally {
    sim.child.kill("SIGTERM");
    await rm(root, { recursive: true, force: true });
  }
}

/** A bucket holding `nights` nights of history made from `base`, then the next night job by job against it. */
async function yearNight(sim: string, base: string, repos: number, nights: number) {
  const root = await mkdtemp(path.join(os.tmpdir(), `projintel-year-${nights}-`));
  const s3 = await startS3Server();
  const meter = await startS3Meter(s3.url);
  const log = path.join(root, "log.jsonl");
  try {
    const setupStarted = performance.now();
    await s3.bucket(BUCKET);
    const state = path.join(root, "generated");
    await cp(base, state, { recursive: true });
    const copied = await fillYear(state, nights);
    const snapshot = await generateSnapshot(state, nights);
    const remote = s3.storage(BUCKET, PREFIX);
    const pushed = await pushState({
      storage: remote,
      stateRoot: state,
      logger: silentLogger,
      concurrency: 16,
    });
    const env: Record<string, string> = {
      ...s3.env,
      AWS_ENDPOINT_URL_S3: meter.url,
      PROJINTEL_REMOTE: `s3://${BUCKET}/${PREFIX}`,
      PROJINTEL_LOG_LEVEL: "warn",
    };
    // yesterday's release is live in the bucket, as it would be, its public database built as a night's is: on a
    // runner that restored the state and scored (the generated state's own was built from the one real night)
    const yesterday = path.join(root, "yesterday");
    await check(runCli(["state", "pull", "--state-dir", yesterday], log, env), "yesterday's restore", log);
    await check(
      runCli(["score", "--date", FIRST, "--state-dir", yesterday], log, env),
      "yesterday's score",
      log,
    );
    await check(
      runCli(["publish", "--state-dir", yesterday, "--force"], log, env),
      "the first night's publish",
      log,
    );
    await rm(state, { recursive: true, force: true });
    await rm(yesterday, { recursive: true, force: true });
    const setup_s = Math.round((performance.now() - setupStarted) / 1000);
    process.stderr.write(
      `year bench (${repos} repositories, ${nights} nights): state generated in ${setup_s} s (${pushed.objects} objects, ${Math.round(pushed.bytes / MIB)} MiB; snapshot of ${snapshot.night}: ${(snapshot.bytes / MIB).toFixed(1)} MiB)\n`,
    );

    const stages: StageFigures[] = [];
    const stage = async (name: string, args: string[], extra: Record<string, string> = {}) => {
      meter.take();
      const run = await measureCommand(process.execPath, [CLI, ...args], { env: { ...env, ...extra } });
      if (run.exit_code !== 0)
        throw new Error(`${name}: projintel ${args.join(" ")} exited ${run.exit_code}`);
      const figures = { stage: name, wall_ms: run.wall_ms, peak_rss_mib: run.peak_rss_mib, ...meter.take() };
      process.stderr.write(`  ${JSON.stringify(figures)}\n`);
      stages.push(figures);
      return figures;
    };
    /** A restore into an empty `dir`, RESTORE_RUNS times (the folder emptied between): the median wall time. */
    const restore = async (name: string, args: readonly string[], dir: string) => {
      const runs: StageFigures[] = [];
      for (let i = 0; i < RESTORE_RUNS; i++) {
        await rm(dir, { recursive: true, force: true });
        meter.take();
        const run = await measureCommand(process.execPath, [CLI, ...args, "--state-dir", dir], { env });
        if (run.exit_code !== 0)
          throw new Error(`${name}: projintel ${args.join(" ")} exited ${run.exit_code}`);
        runs.push({ stage: name, wall_ms: run.wall_ms, peak_rss_mib: run.peak_rss_mib, ...meter.take() });
      }
      const figures = {
        ...(runs[0] as StageFigures),
        wall_ms: median(runs.map((r) => r.wall_ms)),
        peak_rss_mib: Math.max(...runs.map((r) => r.peak_rss_mib)),
        walls_ms: runs.map((r) => r.wall_ms),
      };
      process.stderr.write(`  ${JSON.stringify(figures)}\n`);
      stages.push(figures);
      return figures;
    };
    // The collect jobs, one after the other here (separate runners in the workflow). The first restores its state
    // on an empty folder; the others start from a copy of what it restored (the same download, measured once).
    for (let shard = 1; shard <= SHARDS; shard++) {
      const dir = path.join(root, `shard-${shard}`);
      if (shard === 1)
        await restore(
          `restore --recent --raw-only (collect job; median of ${RESTORE_RUNS})`,
          JOB_PULLS.collect,
          dir,
        );
      else await cp(path.join(root, "restored"), dir, { recursive: true });
      if (shard === 1) await cp(dir, path.join(root, "restored"), { recursive: true });
      await stage(
        `collect shard ${shard}/${SHARDS}`,
        ["collect", "--shard", `${shard}/${SHARDS}`, "--date", NIGHT, "--sim", sim, "--state-dir", dir],
        { ...SIM_ENV, ...freshTokens(`year-${nights}-${shard}`) },
      );
    }
    const scoring = path.join(root, "score");
    // as the collect job's: the publish copies the older nights from the previous release in the bucket
    await restore(`restore --recent (score job; median of ${RESTORE_RUNS})`, JOB_PULLS.score, scoring);
    const scored = await stage("merge, score, history, public db", [
      "score",
      "--shards",
      String(SHARDS),
      "--date",
      NIGHT,
      "--state-dir",
      scoring,
    ]);
    await stage("state push", ["state", "push", "--state-dir", scoring]);
    await stage("publish", ["publish", "--state-dir", scoring]);
    const manifest = JSON.parse(
      await readFile(path.join(scoring, "runs", NIGHT, "manifest.json"), "utf8"),
    ) as RunManifest;
    // the parts the score job did not build (the bucket held them) come from the bucket, for their figures
    const nightly = path.join(scoring, "public", (await latestPublicDb(scoring, NIGHT)) ?? `${NIGHT}.duckdb`);
    const partsRead = (await readManifestBeside(nightly))?.parts ?? [];
    let held = 0;
    for (const part of partsRead) {
      const file = partBeside(nightly, part.name);
      if (await stat(file).catch(() => undefined)) continue;
      held++;
      const bytes = await remote.get(publicDbPartKey(part.name));
      if (!bytes)
        throw new Error(`the bucket holds no part ${part.name}, which the night's public database reads`);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, bytes);
    }
    const publicDb = await nightlyPartFigures(nightly);
    const switched = await measureSwitch({
      s3,
      meter,
      bucket: BUCKET,
      prefix: PREFIX,
      from: FIRST,
      to: NIGHT,
    });
    process.stderr.write(`  ${JSON.stringify({ switch: switched, public_db: publicDb })}\n`);
    const restPerShard = await Promise.all(
      Array.from({ length: SHARDS }, async (_, i) => {
        const done = await remote.get(`nights/${NIGHT}/shards/${i + 1}-of-${SHARDS}/done.json`);
        return (JSON.parse(String(done)) as { collect: { github_rest_requests: number } }).collect
          .github_rest_requests;
      }),
    );
    return {
      repos,
      nights,
      setup: {
        seconds: setup_s,
        history_files_copied: copied,
        objects: pushed.objects,
        bytes: pushed.bytes,
        snapshot_night: snapshot.night,
        snapshot_bytes: snapshot.bytes,
      },
      history_snapshot: manifest.history?.snapshot,
      stages,
      score_stage_ms: manifest.score?.duration_ms,
      public_db_ms: manifest.public_db?.duration_ms,
      // the history parts the night's public database reads, and those the score job took from the bucket unbuilt
      public_db_parts: { read: partsRead.length, held },
      merge_score_wall_ms: scored.wall_ms,
      // what a shim switching from yesterday's release to this one downloaded of the public database
      switch_public_db_bytes: switched.down_bytes,
      switch_public_db_objects: switched.down_objects,
      // a switch the night a week of snapshots and a month of contributors close: their largest parts come too
      // (gzipped, as the shim downloads them)
      switch_public_db_worst_bytes:
        switched.down_bytes +
        Object.values(publicDb.parts.largest).reduce((sum, p) => sum + p.gzipped_bytes, 0),
      public_db: publicDb,
      github_rest_requests: manifest.collect?.github_rest_requests,
      rest_requests_per_shard: restPerShard,
      contributors: await contributorCoverage(path.join(scoring, "warehouse.duckdb")),
    };
  } finally {
    await meter.close();
    await s3.stop();
    await rm(root, { recursive: true, force: true });
  }
}

/**
 * The contributor rotation's steady state in this world: its repositories split over the shards, each shard's
 * rotation with one token's default REST budget (the claim rest-source.ts makes), run for 60 nights.
 */
async function contributorCoverage(warehouse: string) {
  const db = await openDb(warehouse);
  let repos: ContributorCandidate[];
  try {
    repos = await db.all<ContributorCandidate>(
      `SELECT node_id, full_name, stars::INTEGER AS stars FROM raw_github_repos WHERE run_date = DATE '${NIGHT}'`,
    );
  } finally {
    db.close();
  }
  const budget = loadConfig({ env: {} }).github.restBudget;
  const shard = repos.filter((_, i) => i % SHARDS === 0);
  const perNight = Math.min(
    budget,
    Math.max(Math.floor(budget * CONTRIBUTOR_BUDGET_SHARE), contributorFloor(shard)),
  );
  const run = simulateRotation(shard, perNight, 60, NIGHT);
  const steady = run.fresh.slice(30);
  return {
    eligible_per_shard: shard.filter((r) => r.stars >= CONTRIBUTOR_MIN_STARS).length,
    requests_per_night_per_shard: perNight,
    steady_fresh_within_14_days: Math.round(Math.min(...steady) * 1000) / 1000,
  };
}

type YearNight = Awaited<ReturnType<typeof yearNight>>;

/** Each stage on one line, the history lengths side by side. */
function sideBySide(runs: readonly YearNight[]): string[] {
  const mib = (bytes: number) => (bytes / MIB).toFixed(1);
  const lines = [
    `stage | ${runs.map((r) => `${r.nights} nights: wall s, down MiB/objects, up MiB/objects, peak RSS MiB`).join(" | ")}`,
  ];
  for (const [i, first] of (runs[0]?.stages ?? []).entries()) {
    const cells = runs.map((r) => {
      const s = r.stages[i] as StageFigures;
      return `${(s.wall_ms / 1000).toFixed(1)} s, ${mib(s.down_bytes)}/${s.down_objects}, ${mib(s.up_bytes)}/${s.up_objects}${s.copies ? ` (+${s.copies} copied)` : ""}, ${s.peak_rss_mib}`;
    });
    lines.push(`${first.stage} | ${cells.join(" | ")}`);
  }
  process.stderr.write(`${lines.join("\n")}\n`);
  return lines;
}
