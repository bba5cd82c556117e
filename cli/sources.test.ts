// `projintel sources verify` as a user runs it: the exit code says whether every recorded response passed.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const REAL = path.resolve(ROOT, "test/fixtures/real");

function run(args: string[]) {
  const result = spawnSync(process.execPath, [path.join(ROOT, "bin", "projintel.js"), ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("projintel sources verify", () => {
  it("prints one line per recorded file and exits 0 when every recorded body passes", () => {
    const { code, stdout } = run(["sources", "verify", REAL]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ok\s+github-rest\/repo-get\.PyGithub-PyGithub\.2025-01\.json {2}200: /m);
    expect(stdout).toMatch(/^decision\s+github-rest\/error-403-secondary/m);
    expect(stdout).toMatch(/^ok\s+npm\/packument-full\.custodian\.2024-09\.json/m);
    expect(stdout).toMatch(/^decision\s+arxiv\/query-id_list-abc\.error-400\.2026-04\.xml {2}fail: 400/m);
    expect(stdout).toMatch(/^46 files: 36 ok, 10 decisions, 0 failed, 0 without a parser$/m);
  });

  it("exits 1 with --strict while a source has no parser, 0 without it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "verify-cli-"));
    await mkdir(path.join(dir, "gitlab"));
    await writeFile(path.join(dir, "gitlab", "project-get.x.json"), "{}");
    expect(run(["sources", "verify", dir]).code).toBe(0);
    const { code, stderr } = run(["sources", "verify", "--strict", dir]);
    expect(code).toBe(1);
    expect(stderr).toContain("failed verification");
  });

  it("exits 1 when a recorded body fails its schema", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "verify-cli-"));
    await mkdir(path.join(dir, "pypistats"));
    await writeFile(
      path.join(dir, "pypistats", "recent.bad.json"),
      JSON.stringify({ data: { last_day: "x" } }),
    );
    const { code, stdout } = run(["sources", "verify", dir]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^FAILED\s+pypistats\/recent\.bad\.json/m);
  });

  it("explains --strict in its --help", () => {
    const { code, stdout } = run(["sources", "verify", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("--strict");
    expect(stdout).toContain("no parser");
  });
});
