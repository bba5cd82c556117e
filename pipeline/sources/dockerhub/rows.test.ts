// Docker Hub: both recorded shapes parse and map to exact rows; homepage links name the right images.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dockerImagesIn } from "./links.ts";
import { toRows } from "./rows.ts";
import { dockerRepositorySchema } from "./schemas.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real/dockerhub");
const image = (stem: string) =>
  dockerRepositorySchema.parse(
    JSON.parse(
      readFileSync(path.join(REAL, `repository-get.datasetteproject-datasette.${stem}.json`), "utf8"),
    ),
  );
const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T04:00:00Z") };
const datasette = {
  run_date: "2026-03-01",
  image: "datasetteproject/datasette",
  repo_full_name: "simonw/datasette",
  matched_by: "homepage",
  description: "A tool for exploring and publishing data",
  date_registered: "2018-06-28T02:51:42.494457Z",
  status: "active",
  fetched_at: "2026-03-01T04:00:00.000Z",
};

describe("dockerhub toRows", () => {
  it("maps the older shape (2023, no last_modified or storage_size)", () => {
    expect(
      toRows({ image: image("2023-03"), repo: "simonw/datasette", matchedBy: "homepage" }, meta),
    ).toEqual([
      { ...datasette, pull_count: 72673, star_count: 7, last_updated: "2023-03-08T20:54:56.134108Z" },
    ]);
  });

  it("maps the current shape (2026)", () => {
    expect(
      toRows({ image: image("2026-08"), repo: "simonw/datasette", matchedBy: "homepage" }, meta),
    ).toEqual([
      { ...datasette, pull_count: 231874, star_count: 15, last_updated: "2025-11-05T18:25:13.998775Z" },
    ]);
  });

  it("reports a missing pull_count by its path", () => {
    const result = dockerRepositorySchema.safeParse({ namespace: "a", name: "b", star_count: 1 });
    expect(result.error?.issues[0]?.path).toEqual(["pull_count"]);
  });
});

describe("images linked from a homepage", () => {
  it.each([
    ["https://hub.docker.com/r/DatasetteProject/datasette", ["datasetteproject/datasette"]],
    ["see hub.docker.com/r/a/b/tags and https://hub.docker.com/_/postgres", ["a/b", "library/postgres"]],
    ["https://datasette.io", []],
    [null, []],
  ])("%s → %j", (text, images) => {
    expect(dockerImagesIn(text)).toEqual(images);
  });
});
