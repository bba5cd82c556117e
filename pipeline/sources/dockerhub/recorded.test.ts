// `sources verify` with this connector's hook over test/fixtures/real/dockerhub: every recorded body is read or
// turned into the right decision, none fails.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { verifyRecorded } from "../../verify.ts";
import { parseDockerhubRecorded } from "./recorded.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real");

describe("dockerhub recorded responses", () => {
  it("verifies every recorded body", async () => {
    const lines = (await verifyRecorded(REAL, { dockerhub: parseDockerhubRecorded })).filter(
      (l) => l.source === "dockerhub",
    );
    expect(lines.map(({ file, outcome, detail }) => [file, outcome, detail])).toEqual([
      [
        "repository-get.datasetteproject-datasette.2023-03.json",
        "ok",
        "200: datasetteproject/datasette: 72673 pulls, 7 stars (no headers file)",
      ],
      [
        "repository-get.datasetteproject-datasette.2026-08.json",
        "ok",
        "200: datasetteproject/datasette: 231874 pulls, 15 stars (no headers file)",
      ],
    ]);
  });
});
