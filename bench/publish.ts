// Publishing and serving at scale: the synthetic warehouse of the score benchmark (220,000 repositories, 400
// nights) scored, with 400 nights of history partitions, rendered into a release — three full renders from an
// empty releases folder (wall, peak RSS, files, bytes), then the next night's release (files rewritten vs copied).
// Then the shim over that release against a bare node:http server serving the same bytes, loaded by wrk in
// alternating rounds: a pre-rendered page and a sliced page; and the latency of name searches.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openDb, sqlLiteral } from "../core/db.ts";
import { type Measurement, measureCommand, median } from "./measure.ts";
import { CLI } from "./pipeline.ts";
import { buildWarehouse, dayBefore, LAST_NIGHT } from "./score.ts";
import { plainServerArgs, serveArgs, startChild } from "./shim.ts";
import { WRK, wrk } from "./wrk.ts";

async function run(args: string[]): Promise<Measurement> {
  const result = await measureCommand(process.execPath, [CLI, ...args, "--log-level", "warn"]);
  if (result.exit_code !== 0) throw new Error(`projintel ${args.join(" ")} exited ${result.exit_code}`);
  return result;
}

/** One snapshots partition per night of history, as the nightly writes them (copies of the last night's rows). */
async function writeHistory(state: string, nights: number): Promise<void> {
  const db = await openDb(path.join(state, "warehouse.duckdb"), { readOnly: true });
  try {
    for (let n = 0; n < nights; n++) {
      const day = dayBefore(LAST_NIGHT, n + 1);
      const dir = path.join(state, "history", "snapshots", `date=${day}`);
      await mkdir(dir, { recursive: true });
      await db.run(
        `COPY (SELECT * EXCLUDE (date) REPLACE (stars + ${n} AS stars) FROM snapshots WHERE date = (SELECT max(date) FROM snapshots) ORDER BY node_id) TO ${sqlLiteral(path.join(dir, "data.parquet"))} (FORMAT parquet, COMPRESSION zstd)`,
      );
    }
  } finally {
    db.close();
  }
}

interface PublishFigures {
  wall_ms: number;
  peak_rss_mib: number;
  files: number;
  bytes: number;
  written: number;
  written_bytes: number;
  reused: number;
  reused_bytes: number;
}

async function publish(state: string): Promise<PublishFigures> {
  const reportFile = path.join(state, "publish-report.json");
  const measured = await run(["publish", "--state-dir", state, "--force", "--report-json", reportFile]);
  const report = JSON.parse(await readFile(reportFile, "utf8")) as {
    files: number;
    bytes: number;
    writes: { written: number; writtenBytes: number; reused: number; reusedBytes: number };
  };
  return {
    wall_ms: measured.wall_ms,
    peak_rss_mib: measured.peak_rss_mib,
    files: report.files,
    bytes: report.bytes,
    written: report.writes.written,
    written_bytes: report.writes.writtenBytes,
    reused: report.writes.reused,
    reused_bytes: report.writes.reusedBytes,
  };
}

export async function benchPublish(repos: number, nights = 400) {
  // BENCH_SERVE_STATE: measure only the serving figures over a state folder already published
  const served = process.env.BENCH_SERVE_STATE;
  if (served) return benchServing(served);
  const state = await mkdtemp(path.join(os.tmpdir(), "projintel-publish-"));
  try {
    const warehouse = path.join(state, "warehouse.duckdb");
    const kept = process.env.BENCH_SCORE_WAREHOUSE;
    if (kept && existsSync(kept)) await copyFile(kept, warehouse);
    else {
      await buildWarehouse(warehouse, repos, nights);
      if (kept) await copyFile(warehouse, kept);
    }
    const first = dayBefore(LAST_NIGHT, 1);
    await run(["score", "--date", first, "--state-dir", state]);
    await writeHistory(state, nights);
    const full: PublishFigures[] = [];
    for (let i = 0; i < 3; i++) {
      await rm(path.join(state, "releases"), { recursive: true, force: true });
      full.push(await publish(state));
    }
    // the next night: scores moved on, one more history partition
    await run(["score", "--date", LAST_NIGHT, "--state-dir", state]);
    await writeHistory(state, 1);
    const next = await publish(state);
    // the publishes leave gigabytes of dirty pages: written out first, so the disk's write-back does not compete with
    // both servers for the cores while they are measured
    execFileSync("sync");
    const shim = await benchServing(state);
    const pick = (key: keyof PublishFigures) => median(full.map((f) => f[key]));
    return {
      repos,
      history_nights: nights,
      full_render: {
        runs: full,
        median_wall_ms: pick("wall_ms"),
        median_peak_rss_mib: pick("peak_rss_mib"),
        files: pick("files"),
        bytes: pick("bytes"),
        target_wall_ms: 60_000,
        target_peak_rss_mib: 1536,
      },
      next_night: next,
      ...shim,
    };
  } finally {
    // a failure above must not be hidden by the clean-up (a shim still writing its quotas into the folder)
    await rm(state, { recursive: true, force: true, maxRetries: 5 }).catch((error: unknown) =>
      process.stderr.write(`could not remove ${state}: ${String(error)}\n`),
    );
  }
}

async function benchServing(state: string) {
  if (!existsSync(WRK)) throw new Error("wrk is needed for the serving figures: apt-get install -y wrk");
  const db = await openDb(path.join(state, "warehouse.duckdb"), { readOnly: true });
  let domain: string;
  let names: string[];
  let project: string;
  try {
    const [top] = await db.all<{ domain: string }>(
      "SELECT domain FROM score_quality GROUP BY domain ORDER BY count(*) DESC LIMIT 1",
    );
    domain = top?.domain ?? "agents";
    const [best] = await db.all<{ full_name: string }>(
      "SELECT full_name FROM score_quality ORDER BY quality_score DESC, stars DESC, full_name LIMIT 1",
    );
    project = best?.full_name ?? "";
    // what people type: a whole name, its start, or a piece of it (a substring search scans every name)
    const rows = await db.all<{ q: string }>(
      `SELECT DISTINCT CASE hash(full_name) % 3
         WHEN 0 THEN lower(name)
         WHEN 1 THEN left(lower(full_name), 4 + (hash(name) % 6)::INTEGER)
         ELSE substr(lower(name), 3, 4 + (hash(name) % 4)::INTEGER) END AS q
       FROM score_quality USING SAMPLE 5000 ROWS`,
    );
    names = rows.map((r) => r.q.replace(/[^A-Za-z0-9-]/g, "")).filter(Boolean);
  } finally {
    db.close();
  }
  const shim = await startChild(serveArgs(state), {
    PROJINTEL_QUOTA__ANONYMOUS: "1000000000",
  });
  const tmp = await mkdtemp(path.join(os.tmpdir(), "projintel-wrk-"));
  try {
    const pages = {
      prerendered: `/api/v1/quality?domain=${domain}`,
      sliced: `/api/v1/quality?domain=${domain}&min_score=20&offset=1000`,
      // drawn by the shim from the project detail once per URL and release, then served like a prepared page
      badge: `/badges/${project}.svg`,
      project_page: `/p/${project}`,
      // a file of the release, rendered at publish
      domain_page: `/d/${domain}`,
    };
    const out: Record<string, unknown> = {};
    for (const [name, query] of Object.entries(pages)) {
      const response = await fetch(shim.url + query);
      if (response.status !== 200) throw new Error(`shim answered ${response.status} for ${query}`);
      const bodyFile = path.join(tmp, `${name}.json`);
      await writeFile(bodyFile, Buffer.from(await response.arrayBuffer()));
      const plain = await startChild(plainServerArgs(bodyFile));
      try {
        await wrk(shim.url + query, 2);
        await wrk(plain.url + query, 2);
        const shimRps: number[] = [];
        const plainRps: number[] = [];
        for (let i = 0; i < 5; i++) {
          shimRps.push((await wrk(shim.url + query, 5)).rps);
          plainRps.push((await wrk(plain.url + query, 5)).rps);
        }
        out[name] = {
          query,
          median_shim_rps: median(shimRps),
          median_plain_rps: median(plainRps),
          median_ratio: Math.round(median(shimRps.map((s, i) => s / (plainRps[i] as number))) * 1000) / 1000,
          target_ratio: 0.8,
        };
      } finally {
        plain.child.kill("SIGTERM");
      }
    }
    // name search: each request a different q, so the shim's per-URL cache rarely helps
    const script = path.join(tmp, "search.lua");
    await writeFile(
      script,
      `local names = {${names.map((n) => `"${n}"`).join(",")}}\nlocal i = 0\nrequest = function()\n  i = i + 1\n  return wrk.format("GET", "/api/v1/projects?q=" .. names[(i % #names) + 1])\nend\n`,
    );
    try {
      // a refused search would only show as wrk's "non-2xx"; name the first one
      for (const q of names.slice(0, 50)) {
        const res = await fetch(`${shim.url}/api/v1/projects?q=${q}`);
        if (res.status !== 200) throw new Error(`/api/v1/projects?q=${q}: ${res.status} ${await res.text()}`);
      }
      const searches = [];
      const alone = [];
      for (let i = 0; i < 3; i++) {
        searches.push(await wrk(shim.url, 5, script));
        alone.push(await wrk(shim.url, 5, script, 1));
      }
      out.search = {
        distinct_queries: names.length,
        median_rps: median(searches.map((s) => s.rps)),
        // under 32 connections: what a saturated shim makes a caller wait, queueing included
        median_p50_ms: median(searches.map((s) => s.p50_ms)),
        median_p99_ms: median(searches.map((s) => s.p99_ms)),
        // one connection: how long a search takes
        one_connection_p50_ms: median(alone.map((s) => s.p50_ms)),
        one_connection_p99_ms: median(alone.map((s) => s.p99_ms)),
      };
    } catch (error) {
      // reported, not fatal: the render and page figures above stand on their own
      out.search = { error: String(error).split("\n")[0] };
    }
    return { serving: out };
  } finally {
    const exited = new Promise((resolve) => shim.child.once("exit", resolve));
    shim.child.kill("SIGTERM");
    await exited;
    await rm(tmp, { recursive: true, force: true });
  }
}
