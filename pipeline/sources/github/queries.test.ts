// The GraphQL documents validate against the schema subset the simulator serves (GitHub's own names).
import { readFileSync } from "node:fs";
import path from "node:path";
import { buildSchema, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { DETAILS_QUERY, detailsWindows, LIGHT_QUERY, SEARCH_QUERY } from "./queries.ts";

const schema = buildSchema(
  readFileSync(path.resolve(import.meta.dirname, "../../../sim/github/schema.graphql"), "utf8"),
);

describe("GitHub GraphQL documents", () => {
  it.each([
    ["search", SEARCH_QUERY],
    ["details", DETAILS_QUERY],
    ["light", LIGHT_QUERY],
  ])("%s validates against sim/github/schema.graphql", (_name, document) => {
    expect(validate(schema, parse(document)).map((e) => e.message)).toEqual([]);
  });

  it("a wrong field would be caught", () => {
    const broken = DETAILS_QUERY.replace("stargazerCount", "stargazersCount");
    expect(validate(schema, parse(broken)).map((e) => e.message)).toEqual([
      'Cannot query field "stargazersCount" on type "Repository". Did you mean "stargazerCount" or "stargazers"?',
    ]);
  });

  it("computes the commit windows from the run date", () => {
    expect(detailsWindows("2026-03-01")).toEqual({
      since30: "2026-01-30T00:00:00Z",
      since90: "2025-12-01T00:00:00Z",
      since365: "2025-03-01T00:00:00Z",
    });
  });
});
