// `projintel mcp --release <location>`: the stdio server on an empty state folder, reading a release that `projintel
// publish --target` wrote elsewhere (the remote layout: releases/ and public-db/), as `serve --release` reads one —
// its tools answer from that release, and run_query from that night's public database, downloaded for it.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, type StdioMcp } from "../api-shim/mcp/testing.ts";
import { SIM_RELEASE_DATE, type SimApp, simApp, simRelease } from "./sim-release.ts";

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "bin", "projintel.js");

let sim: SimApp;
let target: string;
let empty: string;
let mcp: StdioMcp;

beforeAll(async () => {
  // published from a copy of its own (publish opens the warehouse for writing; the app below holds its copy open)
  const source = await simRelease();
  target = await mkdtemp(path.join(os.tmpdir(), "mcp-target-"));
  empty = await mkdtemp(path.join(os.tmpdir(), "mcp-state-"));
  try {
    await promisify(execFile)(process.execPath, [
      CLI,
      "publish",
      "--state-dir",
      source.stateDir,
      "--target",
      target,
      "--log-level",
      "warn",
    ]);
  } finally {
    await source.cleanup();
  }
  sim = await simApp();
  mcp = await connectStdio(empty, ["--release", target]);
}, 600_000);

afterAll(async () => {
  await mcp?.close();
  await sim?.close();
  await Promise.all([target, empty].map((dir) => dir && rm(dir, { recursive: true, force: true })));
});

// biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON it asked for
type Json = any;
const call = async (name: string, args: Record<string, unknown>) =>
  ((await mcp.client.callTool({ name, arguments: args })) as { structuredContent: Json }).structuredContent;

describe("projintel mcp --release <location>", () => {
  it("answers from the release at the location, the same records as the state folder's", async () => {
    const rest = (await sim.get("/api/v1/projects?limit=3")).body;
    expect(rest.data).toHaveLength(3);
    expect((await call("search_projects", { limit: 3 })).data).toEqual(rest.data);
    const [first] = rest.data;
    const detail = await call("get_project", { slug: first.slug });
    expect(detail.data).toEqual((await sim.get(`/api/v1/projects/${first.slug}`)).body.data);
    const logged = mcp
      .stderr()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .find((l) => l.msg === "mcp server on stdio");
    expect(logged.location).toBe(target);
  });

  it("runs run_query on the night's public database, downloaded beside the empty state folder", async () => {
    const answer = await call("run_query", { sql: "SELECT count(*) AS n FROM projects" });
    const [count] = await sim.db.all<{ n: number }>("SELECT count(*)::INTEGER AS n FROM projects");
    expect(answer.data.run_date).toBe(SIM_RELEASE_DATE);
    expect(answer.data.rows).toEqual([[count?.n]]);
    // the file the release names (named by its bytes), downloaded under the same name: the only database there
    const names = (await readdir(path.join(empty, "public"))).filter((f) => f.endsWith(".duckdb"));
    expect(names).toHaveLength(1);
    const name = names[0] as string;
    expect(name).toMatch(new RegExp(`^${SIM_RELEASE_DATE}-[0-9a-f]{16}\\.duckdb$`));
    const downloaded = await stat(path.join(empty, "public", name));
    const published = await stat(path.join(target, "public-db", name));
    expect(downloaded.size).toBe(published.size);
  });
});
