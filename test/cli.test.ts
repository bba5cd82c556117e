// The projintel program as a user runs it: help texts, and bad flags or settings that stop with exit code 2
// and a message naming what is wrong — before any state is touched.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "bin", "projintel.js");

function run(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", ...env },
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("projintel CLI", () => {
  it("lists every command in --help", () => {
    const { code, stdout } = run(["--help"]);
    expect(code).toBe(0);
    for (const command of ["sim", "collect", "score", "publish", "serve", "nightly", "demo"]) {
      expect(stdout).toMatch(new RegExp(`^\\s+${command}\\b`, "m"));
    }
  });

  it.each(["sim", "collect", "score", "publish", "serve", "nightly", "demo"])(
    "explains %s in its own --help",
    (command) => {
      const { code, stdout } = run([command, "--help"]);
      expect(code).toBe(0);
      expect(stdout).toContain(`Usage: projintel ${command}`);
      expect(stdout.split("\n").length).toBeGreaterThan(4);
    },
  );

  it.each([
    [["collect", "--date", "2026-02-31"], "--date must be a date as YYYY-MM-DD"],
    [["sim", "--repos", "many"], "--repos must be a whole number from 1 to 1000000"],
    [["serve", "--port", "70000"], "--port must be a whole number from 0 to 65535"],
    [["nightly", "--sim", "nowhere"], "Invalid setting PROJINTEL_SIM_URL"],
  ])("rejects %j with exit code 2", (args, message) => {
    const { code, stderr } = run(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it("rejects a bad setting from the environment with exit code 2", () => {
    const { code, stderr } = run(["serve"], { PROJINTEL_QUOTA__ANONYMOUS: "lots" });
    expect(code).toBe(2);
    expect(stderr).toContain("Invalid setting PROJINTEL_QUOTA__ANONYMOUS");
  });

  it("rejects an unknown command with exit code 2", () => {
    const { code, stderr } = run(["frobnicate"]);
    expect(code).toBe(2);
    expect(stderr).toContain("unknown command 'frobnicate'");
  });
});
