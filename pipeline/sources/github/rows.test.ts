// toRows on a hand-built complete answer (testdata/) and on the real recorded bodies, with exact rows.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CARRIED_COLUMNS, type CarriedValues, lightRow, toRows } from "./rows.ts";
import { detailsResponseSchema, lightRepositorySchema } from "./schemas.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real/github-graphql");
const real = (file: string) => JSON.parse(readFileSync(path.join(REAL, file), "utf8"));
const testdata = () =>
  JSON.parse(readFileSync(path.join(import.meta.dirname, "testdata/details.nodes-3.json"), "utf8"));
const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T04:05:06.789Z") };

const RAGKIT = {
  run_date: "2026-03-01",
  node_id: "R_kgDOJx1aAA",
  full_name: "Lumen-Labs/RagKit",
  owner: "Lumen-Labs",
  name: "RagKit",
  description: "Retrieval-augmented generation pipeline with hybrid search",
  homepage: "https://ragkit.example.org/",
  language: "Python",
  license: "Apache-2.0",
  topics: ["rag", "retrieval-augmented-generation", "llm"],
  stars: 12873,
  forks: 1021,
  watchers: 140,
  open_issues: 87,
  closed_issues: 1532,
  open_prs: 23,
  merged_prs: 2210,
  created_at: "2023-06-14T09:12:44Z",
  pushed_at: "2026-02-27T18:03:11Z",
  updated_at: "2026-02-28T07:45:00Z",
  is_archived: false,
  is_fork: false,
  default_branch: "main",
  last_commit_at: "2026-02-27T18:02:58Z",
  commits_30d: 64,
  commits_90d: 201,
  commits_365d: 955,
  releases_total: 48,
  latest_release_tag: "v2.3.0",
  latest_release_at: "2026-02-20T12:00:05Z",
  fetched_at: "2026-03-01T04:05:06.789Z",
  details_as_of: "2026-03-01",
  refresh_tier: "full",
};

describe("github toRows", () => {
  it("maps a complete answer: full rows, the null (NOT_FOUND) and non-repository nodes skipped", () => {
    const rows = toRows(detailsResponseSchema.parse(testdata()), meta);
    expect(rows).toEqual([
      RAGKIT,
      {
        run_date: "2026-03-01",
        node_id: "R_kgDOKq9bBB",
        full_name: "solo-dev/empty-agent",
        owner: "solo-dev",
        name: "empty-agent",
        description: null,
        homepage: null,
        language: null,
        license: null, // NOASSERTION
        topics: [],
        stars: 3,
        forks: 0,
        watchers: 1,
        open_issues: 0,
        closed_issues: 0,
        open_prs: 0,
        merged_prs: 0,
        created_at: "2025-12-01T00:00:01Z",
        pushed_at: null,
        updated_at: "2025-12-01T00:00:01Z",
        is_archived: true,
        is_fork: true,
        default_branch: null,
        last_commit_at: null,
        commits_30d: 0,
        commits_90d: 0,
        commits_365d: 0,
        releases_total: 0,
        latest_release_tag: null,
        latest_release_at: null,
        fetched_at: "2026-03-01T04:05:06.789Z",
        details_as_of: "2026-03-01",
        refresh_tier: "full",
      },
    ]);
  });

  it("makes a light row: today's stars, forks, watchers, times and texts over the carried-forward counts", () => {
    const ragkit = testdata().data.nodes[0];
    const carried = Object.fromEntries(CARRIED_COLUMNS.map((c) => [c, RAGKIT[c]])) as CarriedValues;
    const today = { runDate: "2026-03-04", fetchedAt: new Date("2026-03-04T04:00:00Z") };
    const light = lightRepositorySchema.parse({
      ...ragkit,
      nameWithOwner: "Lumen-Labs/RagKit2",
      name: "RagKit2",
      stargazerCount: 13000,
      watchers: { totalCount: 150 },
    });
    expect(lightRow(light, { ...carried, details_as_of: "2026-03-01" }, today)).toEqual({
      ...RAGKIT,
      run_date: "2026-03-04",
      full_name: "Lumen-Labs/RagKit2",
      name: "RagKit2",
      stars: 13000,
      watchers: 150,
      fetched_at: "2026-03-04T04:00:00.000Z",
      details_as_of: "2026-03-01",
      refresh_tier: "light",
    });
  });

  it("leaves out a node that an error points inside (its data is incomplete)", () => {
    const body = testdata();
    body.errors.push({
      message: "Timeout on history",
      path: ["nodes", 0, "defaultBranchRef", "target", "lastYear"],
    });
    expect(toRows(detailsResponseSchema.parse(body), meta).map((r) => r.node_id)).toEqual(["R_kgDOKq9bBB"]);
  });

  it("converts a timestamp with an offset to UTC (DuckDB would drop the offset)", () => {
    const body = testdata();
    body.data.nodes[0].updatedAt = "2026-02-28T09:45:00+02:00";
    expect(toRows(detailsResponseSchema.parse(body), meta)[0]?.updated_at).toBe("2026-02-28T07:45:00.000Z");
  });

  it("maps chalk's recorded history counts and branch (aliases lastMonth/lastYear as recorded)", () => {
    const body = testdata();
    const recorded = real("repository.defaultBranchRef-history-totalCount.chalk-chalk.2019-11.json");
    const ref = recorded.data.repository.defaultBranchRef;
    // The recording asked for fewer fields; put its values over the complete node.
    Object.assign(body.data.nodes[0].defaultBranchRef, { name: ref.name });
    Object.assign(body.data.nodes[0].defaultBranchRef.target, ref.target);
    const [row] = toRows(detailsResponseSchema.parse(body), meta);
    expect(row).toMatchObject({
      default_branch: "master",
      commits_30d: 42,
      commits_365d: 72,
      commits_90d: 201,
    });
  });

  it("maps chalk's recorded releases (names are empty strings; no tag was asked for)", () => {
    const body = testdata();
    body.data.nodes[0].releases = real(
      "repository.releases.chalk-chalk.2019-11.json",
    ).data.repository.releases;
    const [row] = toRows(detailsResponseSchema.parse(body), meta);
    expect(row).toMatchObject({
      releases_total: 16,
      latest_release_tag: null,
      latest_release_at: "2019-11-09T07:15:42Z",
    });
  });

  it("maps an empty repository's recorded null defaultBranchRef and empty releases", () => {
    const body = testdata();
    body.data.nodes[0].defaultBranchRef = real(
      "repository.defaultBranchRef-null.empty-repo.2024-01.json",
    ).data.repository.defaultBranchRef;
    body.data.nodes[0].releases = real("repository.releases.empty.2023-02.json").data.repository.releases;
    const [row] = toRows(detailsResponseSchema.parse(body), meta);
    expect(row).toMatchObject({
      default_branch: null,
      last_commit_at: null,
      commits_30d: 0,
      commits_90d: 0,
      commits_365d: 0,
      releases_total: 0,
      latest_release_tag: null,
      latest_release_at: null,
    });
  });

  it("maps chalk's recorded open/closed issue counts", () => {
    const body = testdata();
    const repo = real("search-issueCount+repository-issues-totalCount.chalk-chalk.2021-05.json").data
      .repository;
    Object.assign(body.data.nodes[0], repo);
    const [row] = toRows(detailsResponseSchema.parse(body), meta);
    expect(row).toMatchObject({ open_issues: 3, closed_issues: 136 });
  });
});
