// `projintel report` as the nightly workflow runs it: a night's run manifest as Markdown for the job summary (with a
// publish report folded in), and a clear error and exit code when the night has no report.
import { spawnSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../pipeline/public-testing.ts";

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "bin", "projintel.js");
let temp: Awaited<ReturnType<typeof makeTempDir>>;

function report(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, "report", "--state-dir", temp.dir, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  temp = await makeTempDir("report-cli-");
  await mkdir(path.join(temp.dir, "runs", "2026-11-24"), { recursive: true });
  await writeFile(
    path.join(temp.dir, "runs", "2026-11-24", "manifest.json"),
    JSON.stringify({
      run_date: "2026-11-24",
      started_at: "2026-11-24T02:17:00.000Z",
      finished_at: "2026-11-24T02:30:00.000Z",
      status: "degraded",
      durations_ms: { collect: 600_000, score: 18_000, total: 618_000 },
      collect: {
        repos_total: 2000,
        github_graphql_points: 260,
        sources: [
          { source: "github", status: "ok", requests: 81, rows: 2000, duration_ms: 56_500 },
          { source: "npm", status: "failed", requests: 12, rows: 0, duration_ms: 1_000 },
        ],
      },
      score: { repos: 2000, by_tier: { verified: 8, established: 90 } },
    }),
  );
  await writeFile(
    path.join(temp.dir, "publish.json"),
    JSON.stringify({
      releaseId: "2026-11-24_20261124T023000Z",
      projects: 2000,
      files: 120,
      bytes: 3_145_728,
    }),
  );
});
afterAll(() => temp.remove());

describe("projintel report", () => {
  it("prints the newest night's run report as Markdown, with the publish report folded in", () => {
    const { code, stdout } = report(["--markdown", "--publish", path.join(temp.dir, "publish.json")]);
    expect(code).toBe(0);
    expect(stdout.split("\n")).toEqual([
      "## Nightly run 2026-11-24: degraded",
      "",
      "| stage | wall |",
      "|---|---|",
      "| collect | 600.0 s |",
      "| score | 18.0 s |",
      "| total | 618.0 s |",
      "",
      "| source | status | requests | rows | wall |",
      "|---|---|---|---|---|",
      "| github | ok | 81 | 2000 | 56.5 s |",
      "| npm | failed | 12 | 0 | 1.0 s |",
      "",
      "GitHub GraphQL points: 260 (0.130 a repository)",
      "",
      "Scored 2000 repositories: verified 8, established 90",
      "",
      "Release `2026-11-24_20261124T023000Z` is live: 2000 projects, 120 files, 3.0 MiB.",
      "",
      "",
    ]);
  });

  it("names the missing report and exits 1", () => {
    const { code, stderr } = report(["--date", "2026-11-23", "--markdown"]);
    expect(code).toBe(1);
    expect(stderr).toContain("No run report for 2026-11-23");
    expect(stderr).toContain("ls <state>/runs");
  });
});
