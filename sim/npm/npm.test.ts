// npm over a real socket: packuments and download counts pass the same shape checks as the recorded
// real bodies; packages link to their repositories; the bulk form keeps the registry's limits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { linksOf } from "../links.ts";
import { type SimServer, startSimServer } from "../server.ts";
import { fetchJson, readRealFixture } from "../testing.ts";
import { npmFirstPublish } from "./packument.ts";

const packumentShape = z.object({
  name: z.string(),
  "dist-tags": z.object({ latest: z.string() }),
  versions: z.record(
    z.string(),
    z.object({
      name: z.string(),
      version: z.string(),
      dependencies: z.record(z.string(), z.string()).optional(),
    }),
  ),
  time: z.record(z.string(), z.string()),
  repository: z.object({ type: z.string(), url: z.string() }).optional(),
});
const pointShape = z.object({
  downloads: z.number().int(),
  start: z.string(),
  end: z.string(),
  package: z.string(),
});
const rangeShape = z.object({
  start: z.string(),
  end: z.string(),
  package: z.string(),
  downloads: z.array(z.object({ downloads: z.number().int(), day: z.string() })),
});

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ repos: 3000, seed: 8, date: "2026-01-15" });
});
afterAll(async () => {
  await sim.close();
});

function packages(scoped: boolean): string[] {
  const links = linksOf(sim.world);
  return [...links.npmIndices]
    .filter((i) => npmFirstPublish(sim.world, i) < sim.clock.now() - 40)
    .map((i) => links.npmName(i) as string)
    .filter((name) => name.startsWith("@") === scoped);
}

describe("GET /npm/<name>", () => {
  it("answers in the shape of the recorded packument, linking the repository", async () => {
    packumentShape.parse(readRealFixture("npm/packument-full.custodian.2024-09.json"));
    const name = packages(false)[0] as string;
    const reply = await fetchJson(`${sim.url}/npm/${name}`);
    const body = packumentShape.parse(reply.body);
    const index = linksOf(sim.world).findNpm(name) as number;
    expect(body.repository).toEqual({
      type: "git",
      url: `git+https://github.com/${sim.world.fullName(index)}.git`,
    });
    expect(Object.keys(body.versions)).toContain(body["dist-tags"].latest);
    const again = await fetch(`${sim.url}/npm/${name}`, {
      headers: { "if-none-match": reply.headers.get("etag") as string },
    });
    expect(again.status).toBe(304);
  });

  it("finds scoped packages written @scope%2fname, and answers unknown ones with 404", async () => {
    const scoped = packages(true)[0] as string;
    const reply = await fetchJson(`${sim.url}/npm/${scoped.replace("/", "%2f")}`);
    expect([reply.status, reply.body.name]).toEqual([200, scoped]);
    expect(await fetchJson(`${sim.url}/npm/not-a-sim-package`)).toMatchObject({
      status: 404,
      body: { error: "Not found" },
    });
  });
});

describe("GET /npm-downloads/downloads/...", () => {
  it("answers point and range in the shape of the recorded bodies", async () => {
    pointShape.parse(readRealFixture("npm/downloads-point-last-month.base62.2022-09.json"));
    rangeShape.parse(readRealFixture("npm/downloads-range.2022-02-13_2023-02-11.dayjs.json"));
    const name = packages(false)[0] as string;
    const point = pointShape.parse(
      (await fetchJson(`${sim.url}/npm-downloads/downloads/point/last-month/${name}`)).body,
    );
    expect([point.start, point.end, point.package]).toEqual(["2025-12-16", "2026-01-14", name]);
    const range = rangeShape.parse(
      (await fetchJson(`${sim.url}/npm-downloads/downloads/range/2025-12-16:2026-01-14/${name}`)).body,
    );
    expect(range.downloads.length).toBe(30);
    expect(range.downloads.reduce((sum, day) => sum + day.downloads, 0)).toBe(point.downloads);
  });

  it("answers bulk lookups of up to 128 unscoped packages, null for unknown ones", async () => {
    const names = packages(false).slice(0, 3);
    const bulk = await fetchJson(
      `${sim.url}/npm-downloads/downloads/point/last-month/${[...names, "nope-nothing"].join(",")}`,
    );
    expect(Object.keys(bulk.body)).toEqual([...names, "nope-nothing"]);
    expect(bulk.body["nope-nothing"]).toBeNull();
    pointShape.parse(bulk.body[names[0] as string]);
    const scoped = await fetchJson(
      `${sim.url}/npm-downloads/downloads/point/last-month/${names[0]},${packages(true)[0]}`,
    );
    expect(scoped).toMatchObject({
      status: 400,
      body: { error: "scoped packages are not currently supported in bulk lookups" },
    });
    const many = Array.from({ length: 129 }, (_, n) => `p${n}`).join(",");
    expect((await fetchJson(`${sim.url}/npm-downloads/downloads/point/last-month/${many}`)).status).toBe(400);
  });
});
