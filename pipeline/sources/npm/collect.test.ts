// npm collect over real sockets against a small local registry: links decide which packages are kept,
// downloads go in bulk for unscoped names and alone for scoped ones, a malformed packument is quarantined
// with its URL, and a second run resumes every batch without a request.
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, runCollect, testContext } from "../testing.ts";
import type { RepoRef } from "../types.ts";
import { npm } from "./index.ts";

const RUN_DATE = "2026-03-01";
const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real/npm");
const custodian = JSON.parse(readFileSync(path.join(REAL, "packument-full.custodian.2024-09.json"), "utf8"));
const packument = (name: string, repository: unknown) => ({
  name,
  "dist-tags": { latest: "1.0.0" },
  versions: { "1.0.0": { version: "1.0.0", dependencies: { zod: "^4" } } },
  time: {
    created: "2026-01-01T00:00:00.000Z",
    modified: "2026-02-01T00:00:00.000Z",
    "1.0.0": "2026-01-01T00:00:00.000Z",
  },
  repository,
});
const point = (name: string, downloads: number) => ({
  downloads,
  start: "2026-01-30",
  end: "2026-02-28",
  package: name,
});

/** Path → body; anything else is a 404 like the registry's {"error":"Not found"}. */
const ROUTES: Record<string, unknown> = {
  "/registry/custodian": custodian,
  "/registry/gadget": packument("gadget", "github:acme/gadget"),
  "/registry/@acme%2fwidget": packument("@acme/widget", {
    type: "git",
    url: "git+ssh://git@github.com/Acme/widget.git",
  }),
  "/registry/other": packument("other", "https://gitlab.com/someone/other"),
  "/registry/widget": { name: "widget", versions: "not an object" },
  "/downloads/downloads/point/last-month/custodian,gadget": {
    custodian: point("custodian", 12),
    gadget: null,
  },
  "/downloads/downloads/point/last-month/@acme/widget": point("@acme/widget", 7),
};

const repo = (owner: string, name: string): RepoRef => ({
  node_id: `${owner}/${name}`,
  full_name: `${owner}/${name}`,
  owner,
  name,
});
const REPOS = [
  repo("BetSmartMedia", "custodian"),
  repo("acme", "widget"),
  repo("acme", "gadget"),
  repo("someone", "other"),
];

let server: Server;
let base = "";
const requests: string[] = [];
const dirs: string[] = [];
const urlsOf = () => ({ npm: `${base}/registry`, npmDownloads: `${base}/downloads` });

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const body = ROUTES[req.url ?? ""];
    res.writeHead(body === undefined ? 404 : 200, { "content-type": "application/json" });
    res.end(JSON.stringify(body ?? { error: "Not found" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe("npm collect", () => {
  it("keeps linked packages, fetches their downloads in bulk and alone, quarantines the malformed one", async () => {
    const stateDir = await mkdtemp(path.join(tmpdir(), "npm-collect-"));
    dirs.push(stateDir);
    const { ctx, quarantined } = testContext({ stateDir, runDate: RUN_DATE, urls: urlsOf(), repos: REPOS });
    const items = await runCollect(npm, ctx);
    const rows = (prefix: string) => rowsOf(items, prefix);
    expect(items.map((i) => i.id)).toEqual(["raw_npm_packages.00000", "raw_npm_downloads.00000"]);
    expect(rows("raw_npm_packages.00000").map((r) => [r.package, r.repo_full_name, r.dependencies])).toEqual([
      ["@acme/widget", "acme/widget", ["zod"]],
      ["custodian", "betsmartmedia/custodian", ["daemon", "dateformat", "nodemailer", "shell-quote"]],
      ["gadget", "acme/gadget", ["zod"]],
    ]);
    expect(rows("raw_npm_downloads.00000")).toEqual([
      {
        run_date: RUN_DATE,
        package: "custodian",
        start_date: "2026-01-30",
        end_date: "2026-02-28",
        downloads: 12,
        fetched_at: "2026-03-01T04:00:00.000Z",
      },
      {
        run_date: RUN_DATE,
        package: "@acme/widget",
        start_date: "2026-01-30",
        end_date: "2026-02-28",
        downloads: 7,
        fetched_at: "2026-03-01T04:00:00.000Z",
      },
    ]);
    expect(quarantined.map((q) => [q.url, q.error.issues[0]?.path])).toEqual([
      [`${base}/registry/widget`, ["versions"]],
    ]);
    expect(requests.filter((r) => r.startsWith("/downloads")).sort()).toEqual([
      "/downloads/downloads/point/last-month/@acme/widget",
      "/downloads/downloads/point/last-month/custodian,gadget",
    ]);

    requests.length = 0;
    const again = await runCollect(
      npm,
      testContext({ stateDir, runDate: RUN_DATE, urls: urlsOf(), repos: REPOS }).ctx,
    );
    expect(again).toEqual([
      { id: "raw_npm_packages.00000", resumed: true },
      { id: "raw_npm_downloads.00000", resumed: true },
    ]);
    expect(requests).toEqual([]);
  });
});
