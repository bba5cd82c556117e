// PyPI and pypistats over a real socket: the same zod checks accept the recorded real bodies and the
// simulator's, lookups are PEP 503-normalised, unknown projects get 404, and ETags give 304.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as m from "../metrics.ts";
import { type SimServer, startSimServer } from "../server.ts";
import { fetchJson, readRealFixture } from "../testing.ts";

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ repos: 1500, seed: 6, date: "2026-01-15" });
});
afterAll(async () => {
  await sim.close();
});

const file = z.object({
  digests: z.object({ md5: z.string().regex(/^[0-9a-f]{32}$/), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  filename: z.string(),
  packagetype: z.enum(["sdist", "bdist_wheel", "bdist_egg", "bdist_wininst"]),
  requires_python: z.string().nullable(),
  size: z.number().int(),
  upload_time_iso_8601: z.iso.datetime(),
  url: z.url(),
  yanked: z.boolean(),
  yanked_reason: z.string().nullable(),
});
const project = z.object({
  info: z.object({
    name: z.string(),
    version: z.string(),
    summary: z.string().nullable(),
    license: z.string().nullable(),
    home_page: z.string().nullable(),
    project_urls: z.record(z.string(), z.string()).nullable(),
    requires_dist: z.array(z.string()).nullable(),
    requires_python: z.string().nullable(),
    classifiers: z.array(z.string()),
    yanked: z.boolean(),
  }),
  last_serial: z.number().int(),
  releases: z.record(z.string(), z.array(file)),
  urls: z.array(file),
  vulnerabilities: z.array(z.unknown()),
});
const recent = z
  .object({
    data: z
      .object({ last_day: z.number().int(), last_month: z.number().int(), last_week: z.number().int() })
      .strict(),
    package: z.string(),
    type: z.literal("recent_downloads"),
  })
  .strict();

const REAL_PROJECTS = ["mkdocstrings.2025-09", "ply.2023-07", "requests.2023-01"].map(
  (name) =>
    readRealFixture(`pypi/project-json.${name}.json`) as {
      info: Record<string, unknown>;
      urls: Record<string, unknown>[];
    },
);

function publishedIndex(from = 0): number {
  for (let i = from; i < sim.world.size; i++) {
    if (sim.world.pypiName(i) && m.releaseCount(sim.world, i, sim.clock.now()) > 0) return i;
  }
  throw new Error("no published project in the test world");
}

describe("GET /pypi/pypi/<project>/json", () => {
  it("answers in the shape of the recorded PyPI bodies", async () => {
    for (const body of REAL_PROJECTS) project.parse(body);
    const i = publishedIndex();
    const { status, body } = await fetchJson(`${sim.url}/pypi/pypi/${sim.world.pypiName(i)}/json`);
    expect(status).toBe(200);
    const parsed = project.parse(body);
    expect(Object.keys(parsed.releases)).toContain(parsed.info.version);
    expect(parsed.urls).toEqual(parsed.releases[parsed.info.version]);
    expect(Object.values(parsed.info.project_urls ?? {})).toContain(
      `https://github.com/${sim.world.fullName(i)}`,
    );

    const realInfoKeys = new Set(REAL_PROJECTS.flatMap((real) => Object.keys(real.info)));
    const commonInfoKeys = Object.keys(REAL_PROJECTS[0]?.info ?? {}).filter((key) =>
      REAL_PROJECTS.every((real) => key in real.info),
    );
    expect(Object.keys(body.info).filter((key) => !realInfoKeys.has(key))).toEqual([]);
    expect(commonInfoKeys.filter((key) => !(key in body.info))).toEqual([]);
    expect(Object.keys(body.urls[0] ?? {}).sort()).toEqual(
      Object.keys(REAL_PROJECTS[2]?.urls[0] ?? {}).sort(),
    );
  });

  it("looks names up PEP 503-normalised", async () => {
    const name = sim.world.pypiName(publishedIndex()) as string;
    const odd = name.toUpperCase().replace(/-/g, "_");
    const { body } = await fetchJson(`${sim.url}/pypi/pypi/${odd}/json`);
    expect(body.info.name).toBe(name);
  });

  it("answers an unknown project with 404 {message: Not Found}", async () => {
    const response = await fetch(`${sim.url}/pypi/pypi/surely-not-a-sim-project/json`);
    expect([response.status, await response.json()]).toEqual([404, { message: "Not Found" }]);
  });

  it("sends an ETag and answers If-None-Match with 304", async () => {
    const url = `${sim.url}/pypi/pypi/${sim.world.pypiName(publishedIndex())}/json`;
    const first = await fetch(url);
    const etag = first.headers.get("etag") as string;
    expect(etag).toMatch(/^"[A-Za-z0-9+/]{22}"$/);
    const again = await fetch(url, { headers: { "if-none-match": etag } });
    expect([again.status, await again.text(), again.headers.get("etag")]).toEqual([304, "", etag]);
    const stale = await fetch(url, { headers: { "if-none-match": '"stale"' } });
    expect(stale.status).toBe(200);
  });
});

describe("GET /pypistats/api/packages/<project>/recent", () => {
  it("answers in the shape of the recorded pypistats body", async () => {
    recent.parse(readRealFixture("pypistats/recent.flask.json"));
    const name = sim.world.pypiName(publishedIndex()) as string;
    const body = recent.parse((await fetchJson(`${sim.url}/pypistats/api/packages/${name}/recent`)).body);
    expect(body.package).toBe(name.toLowerCase().replace(/[-_.]+/g, "-"));
    expect(body.data.last_month).toBeGreaterThanOrEqual(body.data.last_week);
    const month = await fetchJson(`${sim.url}/pypistats/api/packages/${name}/recent?period=month`);
    expect(month.body.data).toEqual({ last_month: body.data.last_month });
  });

  it("answers an unknown project with 404", async () => {
    const response = await fetch(`${sim.url}/pypistats/api/packages/surely-not-a-sim-project/recent`);
    expect([response.status, await response.json()]).toEqual([404, { message: "Not Found" }]);
  });
});

describe("as the clock moves", () => {
  it("changes the ETag when a new release is uploaded", async () => {
    const now = sim.clock.now();
    let index = -1;
    for (let i = 0; i < sim.world.size && index < 0; i++) {
      if (
        sim.world.pypiName(i) &&
        m.releaseCount(sim.world, i, now) > 0 &&
        m.releaseCount(sim.world, i, now + 30) > m.releaseCount(sim.world, i, now)
      )
        index = i;
    }
    const url = `${sim.url}/pypi/pypi/${sim.world.pypiName(index)}/json`;
    const before = await fetchJson(url);
    const etag = before.headers.get("etag") as string;
    await fetch(`${sim.url}/_sim/advance?days=30`, { method: "POST" });
    const after = await fetchJson(url, { headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(Object.keys(after.body.releases).length).toBeGreaterThan(Object.keys(before.body.releases).length);
  });
});

describe("links between projects", () => {
  it("names only projects of the same world in requires_dist (their dependents can be counted)", async () => {
    const now = sim.clock.now();
    const names: string[] = [];
    for (let i = 0; i < sim.world.size && names.length < 40; i++) {
      if (sim.world.pypiName(i) && m.releaseCount(sim.world, i, now) > 0)
        names.push(sim.world.pypiName(i) as string);
    }
    const required: string[] = [];
    for (const name of names) {
      const { body } = await fetchJson(`${sim.url}/pypi/pypi/${name}/json`);
      for (const spec of body.info.requires_dist ?? [])
        required.push(/^[A-Za-z0-9._-]+/.exec(spec)?.[0] as string);
    }
    expect(required.length).toBeGreaterThan(5);
    expect(required.filter((name) => sim.world.findPypi(name) === undefined)).toEqual([]);
  });
});
