// How long a shim serving from a bucket takes to follow the next night, and how fast the simulator answers a GraphQL
// batch: figures that were once timing bounds inside tests (test/serve-bucket.test.ts, sim/github/graphql.test.ts),
// which a busy machine could break; tests now check what happens, these measure how long it takes.
//
// The switch: the fixture's night published to s3rver by `projintel publish --target s3://…`, two
// `projintel serve --release s3://…` shims re-checking the pointer every 500 ms, then three next nights published
// one by one; for each, the time from the publish's exit to both shims logging that they serve it, and the public
// database's download as the shims logged it. Medians of the three.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startSimServer } from "../sim/server.ts";
import { postGraphql } from "../sim/testing.ts";
import { writeFixturePublicDb, writeFixtureWarehouse } from "../test/fixture-night.ts";
import { startS3Server } from "../test/s3-server.ts";
import { runCli, type ServeProcess, startServe } from "../test/serve-process.ts";
import { median } from "./measure.ts";

const BUCKET = "bench-switch";
const LOCATION = `s3://${BUCKET}/prod`;
const CHECK_EVERY_MS = 500;
const NIGHTS = ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"];

export async function benchReleaseSwitch() {
  const s3 = await startS3Server();
  const dirs = await Promise.all(
    ["build", "a", "b"].map((name) => mkdtemp(path.join(os.tmpdir(), `bench-switch-${name}-`))),
  );
  const [build, ...states] = dirs as [string, string, string];
  let shims: ServeProcess[] = [];
  const publish = async (runDate: string) => {
    await Promise.all([writeFixtureWarehouse(build, runDate), writeFixturePublicDb(build, runDate)]);
    await runCli(["publish", "--target", LOCATION, "--state-dir", build, "--force"], {
      ...s3.env,
      PROJINTEL_LOG_LEVEL: "error",
    });
  };
  try {
    await s3.bucket(BUCKET);
    await publish(NIGHTS[0] as string);
    const env = {
      ...s3.env,
      PROJINTEL_RELEASE__CHECK_EVERY_MS: String(CHECK_EVERY_MS),
      PROJINTEL_LOG_LEVEL: "info",
    };
    shims = await Promise.all(
      states.map((state) => startServe(["--release", LOCATION, "--state-dir", state], env)),
    );
    const switches: number[] = [];
    const downloads: number[] = [];
    for (const night of NIGHTS.slice(1)) {
      await publish(night);
      const published = performance.now();
      const pending = new Set(shims);
      while (pending.size > 0) {
        for (const shim of pending) {
          if (shim.logs("serving release").some((line) => line.run_date === night)) pending.delete(shim);
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      switches.push(performance.now() - published);
      for (const shim of shims) {
        const ready = shim.logs("public database ready").find((line) => line.run_date === night);
        downloads.push(Number(ready?.ms));
      }
    }
    return {
      check_every_ms: CHECK_EVERY_MS,
      shims: shims.length,
      nights: switches.length,
      switch_ms_median: Math.round(median(switches)),
      switch_ms: switches.map(Math.round),
      public_db_download_ms_median: Math.round(median(downloads)),
      graphql_batch_of_100_ms_median: await benchGraphqlBatch(),
    };
  } finally {
    await Promise.all(shims.map((shim) => shim.stop()));
    await s3.stop();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

/** The simulator answering a typical collection batch (100 repositories by node id): median of 7 batches. */
async function benchGraphqlBatch(): Promise<number> {
  const sim = await startSimServer({ repos: 2000, seed: 3, date: "2026-01-15" });
  try {
    const query = `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Repository { nameWithOwner stargazerCount forkCount
      issues(states: OPEN) { totalCount } pullRequests(states: MERGED) { totalCount } latestRelease { tagName publishedAt }
      repositoryTopics(first: 20) { nodes { topic { name } } }
      defaultBranchRef { target { ... on Commit { committedDate history(since: "2025-12-15T00:00:00Z") { totalCount } } } } } } }`;
    const timings: number[] = [];
    for (let batch = 0; batch < 7; batch++) {
      const ids = Array.from({ length: 100 }, (_, k) => sim.world.nodeId(batch * 100 + k));
      const started = performance.now();
      await postGraphql(sim.url, query, { ids }, "speed");
      timings.push(performance.now() - started);
    }
    return Math.round(median(timings) * 10) / 10;
  } finally {
    await sim.close();
  }
}
