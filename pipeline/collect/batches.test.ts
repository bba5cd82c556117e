// The batch store on a real temp folder: atomic files, resume checks, listing by table prefix.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openBatchStore } from "./batches.ts";

let stateDir = "";
beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), "projintel-batches-"));
});
afterEach(() => rm(stateDir, { recursive: true, force: true }));

describe("openBatchStore", () => {
  it("writes NDJSON under runs/<date>/batches/<source>/<id>.ndjson and reads it back", async () => {
    const store = openBatchStore(stateDir, "2026-03-01");
    expect(await store.has("pypi", "raw_pypi_projects.0001")).toBe(false);
    await store.write("pypi", "raw_pypi_projects.0001", [
      { package: "a", n: 1 },
      { package: "b", n: null },
    ]);
    const file = path.join(stateDir, "runs/2026-03-01/batches/pypi/raw_pypi_projects.0001.ndjson");
    expect(await readFile(file, "utf8")).toBe('{"package":"a","n":1}\n{"package":"b","n":null}\n');
    expect(await store.has("pypi", "raw_pypi_projects.0001")).toBe(true);
    expect(await store.read("pypi", "raw_pypi_projects.0001")).toEqual([
      { package: "a", n: 1 },
      { package: "b", n: null },
    ]);
    // No temp file is left beside it.
    expect(await readdir(path.dirname(file))).toEqual(["raw_pypi_projects.0001.ndjson"]);
  });

  it("removes the temp files a killed invocation left, and only those", async () => {
    const store = openBatchStore(stateDir, "2026-03-01");
    expect(await store.removeLeftovers()).toBe(0);
    await store.write("npm", "raw_npm_packages.00000", [{ package: "a" }]);
    const folder = path.join(stateDir, "runs/2026-03-01/batches/npm");
    await writeFile(path.join(folder, "raw_npm_packages.00001.ndjson.123-abcdef.tmp"), '{"package":');
    expect(await store.removeLeftovers()).toBe(1);
    expect(await readdir(folder)).toEqual(["raw_npm_packages.00000.ndjson"]);
    expect(await store.list("npm")).toEqual(["raw_npm_packages.00000"]);
  });

  it("keeps an empty batch as an empty file, so a batch that found nothing is not fetched again", async () => {
    const store = openBatchStore(stateDir, "2026-03-01");
    await store.write("github", "search.mcp.20260101-20260301", []);
    expect(await store.has("github", "search.mcp.20260101-20260301")).toBe(true);
    expect(await store.read("github", "search.mcp.20260101-20260301")).toEqual([]);
  });

  it("lists ids and files sorted, filtered by prefix, and nothing for an unknown source", async () => {
    const store = openBatchStore(stateDir, "2026-03-01");
    for (const id of ["raw_a.0002", "raw_a.0001", "raw_b.0001", "search.x"])
      await store.write("s", id, [{ id }]);
    expect(await store.list("s")).toEqual(["raw_a.0001", "raw_a.0002", "raw_b.0001", "search.x"]);
    expect(await store.list("s", "raw_a.")).toEqual(["raw_a.0001", "raw_a.0002"]);
    expect(await store.files("s", "raw_b.")).toEqual([
      path.join(stateDir, "runs/2026-03-01/batches/s/raw_b.0001.ndjson"),
    ]);
    expect(await store.list("nothing-yet")).toEqual([]);
  });

  it("replaces a batch written again and keeps run dates apart", async () => {
    const day1 = openBatchStore(stateDir, "2026-03-01");
    const day2 = openBatchStore(stateDir, "2026-03-02");
    await day1.write("s", "b", [{ v: 1 }]);
    await day1.write("s", "b", [{ v: 2 }]);
    expect(await day1.read("s", "b")).toEqual([{ v: 2 }]);
    expect(await day2.has("s", "b")).toBe(false);
  });

  it("refuses ids that could escape the folder", async () => {
    const store = openBatchStore(stateDir, "2026-03-01");
    await expect(store.write("s", "../evil", [])).rejects.toThrow('Invalid batch id "../evil"');
    expect(() => openBatchStore(stateDir, "../x")).toThrow('Invalid batch run date "../x"');
  });
});
