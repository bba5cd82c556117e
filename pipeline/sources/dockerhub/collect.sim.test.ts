// Docker Hub collect against the simulator over real sockets: every image named after a tracked repository
// and registered by the run date is found with the sim's counts; the other names are 404s, skipped.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerRegistered, dockerRepository } from "../../../sim/dockerhub/handler.ts";
import { type SimServer, startSimServer } from "../../../sim/index.ts";
import { linksOf } from "../../../sim/links.ts";
import { rowsOf, runCollect, simRepoRefs, testContext } from "../testing.ts";
import { dockerhub } from "./index.ts";

const RUN_DATE = "2026-03-01";
const TODAY = Date.parse(`${RUN_DATE}T00:00:00Z`) / 86_400_000;
let sim: SimServer;
let stateDir: string;

beforeAll(async () => {
  sim = await startSimServer({ repos: 300, seed: 11, date: RUN_DATE, port: 0 });
  stateDir = await mkdtemp(path.join(tmpdir(), "dockerhub-sim-"));
});
afterAll(async () => {
  await sim.close();
  await rm(stateDir, { recursive: true, force: true });
});

describe("dockerhub collect against the simulator", () => {
  it("finds every image named after a tracked repository, with its pull and star counts", async () => {
    const { world } = sim;
    const refs = simRepoRefs(world);
    const expected: Record<string, [string, number, number]> = {};
    refs.forEach((ref, i) => {
      const image = linksOf(world).dockerName(i);
      if (!image || image !== ref.full_name.toLowerCase() || dockerRegistered(world, i) > TODAY) return;
      const body = dockerRepository(world, i, TODAY);
      expected[image] = [image, body.pull_count, body.star_count];
    });
    expect(Object.keys(expected).length).toBeGreaterThan(5);

    const { ctx, skipped, quarantined } = testContext({
      stateDir,
      runDate: RUN_DATE,
      urls: { dockerhub: `${sim.url}/dockerhub` },
      repos: refs,
      simulated: true,
    });
    const rows = rowsOf(await runCollect(dockerhub, ctx), "raw_dockerhub_repos.");
    expect(
      Object.fromEntries(rows.map((r) => [r.image, [r.repo_full_name, r.pull_count, r.star_count]])),
    ).toEqual(expected);
    expect(rows.every((r) => r.matched_by === "name")).toBe(true);
    expect(skipped()).toBe(refs.length - rows.length);
    expect(quarantined).toEqual([]);
  });
});
