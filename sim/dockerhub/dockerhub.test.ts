// Docker Hub over a real socket: the simulator's repository body passes the same shape check as both
// recorded bodies (2023 and 2026 shapes), links its GitHub repository, and unknown images answer 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { linksOf } from "../links.ts";
import { type SimServer, startSimServer } from "../server.ts";
import { fetchJson, readRealFixture } from "../testing.ts";
import { dockerRegistered } from "./handler.ts";

const repositoryShape = z.object({
  namespace: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  star_count: z.number().int(),
  pull_count: z.number().int(),
  last_updated: z.string().nullable(),
  date_registered: z.string(),
  full_description: z.string().nullable(),
});

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ repos: 1500, seed: 9, date: "2023-06-01" });
});
afterAll(async () => {
  await sim.close();
});

describe("GET /dockerhub/v2/repositories/{namespace}/{repo}", () => {
  it("answers in both recorded shapes, by date", async () => {
    const old = repositoryShape
      .strip()
      .parse(readRealFixture("dockerhub/repository-get.datasetteproject-datasette.2023-03.json"));
    const recent = readRealFixture(
      "dockerhub/repository-get.datasetteproject-datasette.2026-08.json",
    ) as Record<string, unknown>;
    repositoryShape.parse(recent);
    const links = linksOf(sim.world);
    const index = [...Array(sim.world.size).keys()].find(
      (i) => links.dockerName(i) && dockerRegistered(sim.world, i) < sim.clock.now(),
    ) as number;
    const url = `${sim.url}/dockerhub/v2/repositories/${links.dockerName(index)}`;
    const before = await fetchJson(url);
    expect(Object.keys(before.body).sort()).toEqual(
      Object.keys(
        readRealFixture("dockerhub/repository-get.datasetteproject-datasette.2023-03.json") as object,
      ).sort(),
    );
    expect(repositoryShape.parse(before.body).full_description).toContain(
      `https://github.com/${sim.world.fullName(index)}`,
    );
    expect(old.pull_count).toBeGreaterThan(0);
    await fetch(`${sim.url}/_sim/advance?days=365`, { method: "POST" });
    const after = await fetchJson(url);
    expect(Object.keys(after.body).sort()).toEqual(Object.keys(recent).sort());
    expect(after.body.pull_count).toBeGreaterThanOrEqual(before.body.pull_count);
  });

  it("answers an unknown image with 404", async () => {
    const reply = await fetchJson(`${sim.url}/dockerhub/v2/repositories/nobody/nothing`);
    expect([reply.status, reply.body]).toEqual([404, { message: "object not found", errinfo: {} }]);
  });
});
