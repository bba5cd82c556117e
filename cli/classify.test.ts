// `projintel classify` as a user runs it: an aligned table, JSON lines, --eval, and a bad line stopping with its number.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const CLI = path.resolve(import.meta.dirname, "..", "bin", "projintel.js");

function run(args: string[], input: string) {
  const result = spawnSync(process.execPath, [CLI, "classify", ...args], {
    encoding: "utf8",
    input,
    env: { PATH: process.env.PATH ?? "" },
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const LINES = [
  '{"full_name":"acme/vecs","description":"A vector database in Rust","topics":[],"language":"Rust"}',
  '{"full_name":"acme/things","description":"Stuff","topics":["mcp-server","mcp"],"language":"TypeScript"}',
].join("\n");

describe("projintel classify", () => {
  it("prints an aligned table from standard input", () => {
    const { code, stdout } = run([], LINES);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        "full_name    domain     subcategory       stack_layer  rule",
        "acme/vecs    vector-db  vector-databases  data         phrase: vector database",
        "acme/things  mcp        mcp-servers       interface    topic: mcp-server",
        "",
      ].join("\n"),
    );
  });

  it("prints JSON lines with --json", () => {
    const { code, stdout } = run(["--json", "-"], LINES);
    expect(code).toBe(0);
    expect(
      stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([
      {
        full_name: "acme/vecs",
        domain: "vector-db",
        subcategory: "vector-databases",
        stack_layer: "data",
        rule: "phrase: vector database",
      },
      {
        full_name: "acme/things",
        domain: "mcp",
        subcategory: "mcp-servers",
        stack_layer: "interface",
        rule: "topic: mcp-server",
      },
    ]);
  });

  it("measures labelled lines with --eval and lists the misses", () => {
    const labelled = [
      '{"full_name":"acme/vecs","description":"A vector database","topics":[],"domain":"vector-db","also_ok":[],"stack_layer":"data"}',
      '{"full_name":"acme/things","description":"Stuff","topics":["mcp-server"],"domain":"rag","also_ok":[],"stack_layer":"interface"}',
    ].join("\n");
    const { code, stdout } = run(["--eval"], labelled);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        "full_name    domain  expected  layer      expected_layer  rule",
        "acme/things  mcp     rag       interface  interface       topic: mcp-server",
        "2 labelled: domain 1 correct (50.0%), stack layer 2 correct (100.0%)",
        "",
      ].join("\n"),
    );
  });

  it("stops at a bad line with its number and exit code 1", () => {
    const { code, stdout, stderr } = run([], `${LINES}\n{"full_name":"acme/x","topics":"rag"}\n`);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain(
      "projintel: stdin line 3: topics: Invalid input: expected array, received string.",
    );
  });

  it("names a file it cannot read", () => {
    const { code, stderr } = run(["/nonexistent/repos.jsonl"], "");
    expect(code).toBe(1);
    expect(stderr).toContain("Cannot read /nonexistent/repos.jsonl");
  });
});
