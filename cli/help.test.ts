// Every flag a command's --help offers does something for that command: score reads only the warehouse and the
// shards (no --sim), sql and history list log nothing (no --log-level), the demo offers --verbose for its log.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "bin", "projintel.js");

/** The long flags listed in a command's --help (option lines are indented two spaces; wrapped text further). */
function flagsOf(command: string[]): string[] {
  const { stdout } = spawnSync(process.execPath, [CLI, ...command, "--help"], { encoding: "utf8" });
  return [...stdout.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1] as string);
}

describe("--help offers only flags that act", () => {
  it("score: the state folder, the log level, the night, the public database and the shards to merge", () => {
    expect(flagsOf(["score"])).toEqual([
      "--state-dir",
      "--log-level",
      "--date",
      "--no-public-db",
      "--shards",
      "--remote",
      "--carry-missing",
      "--help",
    ]);
  });
  it("sql and history list: the state folder, no log level", () => {
    expect(flagsOf(["sql"])).not.toContain("--log-level");
    expect(flagsOf(["sql"])).toContain("--param");
    expect(flagsOf(["history", "list"])).toEqual(["--state-dir", "--json", "--help"]);
  });
  it("demo: --verbose for the log on stderr", () => {
    expect(flagsOf(["demo"])).toContain("--verbose");
  });
});
