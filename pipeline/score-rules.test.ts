// The score's rules for real projects (methodology version 4), each on hand-made feat_repos rows through the real
// score SQL: versions read wherever they stand in a tag, 0.x stable in practice, history fading without life, the
// finished rule on what a list knows, unknown inputs from every known input, all-time totals read as monthly
// estimates, package_mismatch, and tracked and dependency-graph dependents each on its own scale.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "../core/db.ts";
import { type FeatRow, loadFeatRepos, runScoreSql, setScoreVariables } from "./testdata/score-harness.ts";

const RUN_DATE = "2026-11-20";
const ago = (days: number) => new Date(Date.parse(`${RUN_DATE}T00:00:00Z`) - days * 86_400_000);

/** A well-kept, adopted library as a list states it; each case changes what it tests. */
function library(id: string, change: Partial<FeatRow> = {}): FeatRow {
  return {
    node_id: id,
    full_name: `test/${id}`,
    owner: "test",
    name: id,
    slug: `test--${id}`,
    description: "A library",
    homepage: "https://example.org",
    topics: ["ml"],
    license: "MIT",
    stars: 5000,
    forks: 500,
    watchers: 100,
    open_issues: 50,
    closed_issues: 450,
    merged_prs: 2000,
    contributors: 100,
    created_at: ago(3000),
    pushed_at: ago(5),
    last_commit_at: ago(5),
    is_archived: false,
    commits_90d: 40,
    commits_365d: 150,
    // 30 weeks of the last 52 with a commit, the latest ones
    commit_weeks: Array.from({ length: 52 }, (_, i) => (i >= 22 ? 1 : 0)),
    releases_total: 40,
    latest_release_tag: "v1.2.0",
    latest_release_at: ago(30),
    issue_response_median_hours: 20,
    issues_sampled: 10,
    pypi_package: id,
    pypi_version: null,
    pypi_stable_releases: 40,
    pypi_prereleases: 0,
    downloads_monthly: 500_000,
    docker_pulls_monthly: 0,
    registry_likes: 0,
    // a list's dependents: GitHub's dependency graph, scored on dependents_graph_cap
    graph_dependents: 100,
    is_stale: false,
    ...change,
  };
}

const DEAD = { pushed_at: ago(800), last_commit_at: ago(800), latest_release_at: ago(900), commits_90d: 0 };

interface Row {
  node_id: string;
  stable_v1: boolean;
  stable_release: boolean;
  is_finished: boolean;
  alive_share: number;
  quality_score: number;
  quality_tier: string;
  explanation: string;
}

describe("the score's rules for real projects", () => {
  let db: Db;
  let rows: Map<string, Row>;
  const rows_ = [
    // versions
    library("tag-path", { latest_release_tag: "client/v2.5.4" }),
    library("tag-suffix", { latest_release_tag: "4.52.4-Kyutai-STT-preiew" }),
    library("tag-rc", {
      latest_release_tag: "2.0.0rc1",
      releases_total: 3,
      pypi_stable_releases: 2,
      pypi_prereleases: 1,
      downloads_monthly: 0,
    }),
    library("tag-beta", {
      latest_release_tag: "v3.0-beta",
      releases_total: 3,
      pypi_stable_releases: 2,
      pypi_prereleases: 1,
      downloads_monthly: 0,
    }),
    // a pre-release of the next version after many releases: the ones before it were stable, unless it is 1.0's
    library("tag-next-rc", { latest_release_tag: "v4.0.0-rc.1", releases_total: 158, downloads_monthly: 0 }),
    library("tag-first-rc", { latest_release_tag: "v1.0.0-rc.1", releases_total: 40, downloads_monthly: 0 }),
    // 0.x: released like a stable library, or not
    library("zero-practised", { latest_release_tag: "v0.14.2" }),
    library("zero-young", { latest_release_tag: "v0.14.2", created_at: ago(400) }),
    library("zero-unadopted", { latest_release_tag: "v0.14.2", downloads_monthly: 3000 }),
    library("zero-prerelease", { latest_release_tag: "v0.14.0rc2" }),
    // life
    library("alive"),
    library("dead", DEAD),
    library("dying", { ...DEAD, pushed_at: ago(545), last_commit_at: ago(545) }),
    // the finished-project rule: quiet but done
    library("finished-closed", {
      pushed_at: ago(200),
      last_commit_at: ago(200),
      latest_release_at: ago(300),
      commits_90d: 0,
      commits_365d: 2,
      issue_response_median_hours: null,
      issues_sampled: 0,
      open_issues: 120,
      closed_issues: 1500,
    }),
    library("finished-open", {
      pushed_at: ago(200),
      last_commit_at: ago(200),
      latest_release_at: ago(300),
      commits_90d: 0,
      commits_365d: 2,
      issue_response_median_hours: null,
      issues_sampled: 0,
      open_issues: 120,
      closed_issues: 100,
    }),
    library("finished-dependents-only", {
      pushed_at: ago(200),
      last_commit_at: ago(200),
      latest_release_at: ago(300),
      commits_90d: 0,
      commits_365d: 2,
      downloads_monthly: 10,
      graph_dependents: 3,
    }),
    library("finished-no-release", {
      pushed_at: ago(200),
      last_commit_at: ago(200),
      latest_release_at: ago(1500),
      commits_90d: 0,
      commits_365d: 2,
    }),
    // estimates and flags
    library("conda", { downloads_monthly: 0, conda_downloads_monthly: 200_000 }),
    library("mismatch", { downloads_monthly: 400 }),
    library("docs-unknown", { homepage: null, topics: null, doc_signals_unknown: 2, registry_likes: null }),
    // dependents, two measures: the nightly's tracked repositories and a list's dependency graph
    library("tracked-1", { graph_dependents: null, dependents: 1 }),
    library("tracked-10", { graph_dependents: null, dependents: 10 }),
    library("tracked-39", { graph_dependents: null, dependents: 39 }),
    library("tracked-100", { graph_dependents: null, dependents: 100 }),
    library("graph-39", { graph_dependents: 39 }),
    library("graph-1000", { graph_dependents: 1000 }),
    library("graph-1900000", { graph_dependents: 1_900_000 }),
    // unknown responsiveness: the share all known inputs earned, never above the last commit's recency
    library("unknown-response", { issue_response_median_hours: null, issues_sampled: 0 }),
    library("unknown-response-quiet", {
      issue_response_median_hours: null,
      issues_sampled: 0,
      pushed_at: ago(300),
      last_commit_at: ago(300),
      commits_90d: 0,
      commits_365d: 3,
    }),
  ];

  beforeAll(async () => {
    db = await openDb(":memory:");
    await setScoreVariables(db, RUN_DATE);
    await loadFeatRepos(db, rows_);
    await runScoreSql(db);
    const got = await db.all<Row>(
      `SELECT node_id, stable_v1, stable_release, is_finished, alive_share, quality_score, quality_tier,
              explanation::VARCHAR AS explanation
       FROM score_components JOIN score_quality USING (node_id) JOIN score_explanations USING (node_id)`,
    );
    rows = new Map(got.map((r) => [r.node_id, r]));
  });
  afterAll(() => db.close());

  const row = (id: string) => rows.get(id) as Row;
  const explained = (id: string) => JSON.parse(row(id).explanation);
  const input = (id: string, component: string, name: string) =>
    explained(id)[component].inputs.find((i: { name: string }) => i.name === name);

  it("reads a version wherever it stands in a tag; a pre-release marker right after it is not stable, unless a stable line came before", () => {
    const ids = ["tag-path", "tag-suffix", "tag-rc", "tag-beta", "tag-next-rc", "tag-first-rc"];
    expect(ids.map((id) => [id, row(id).stable_v1])).toEqual([
      ["tag-path", true],
      ["tag-suffix", true],
      // 3 releases: too few to say a stable line came before
      ["tag-rc", false],
      ["tag-beta", false],
      // 158 releases before a 4.0 candidate: 3.x was stable
      ["tag-next-rc", true],
      // no stable 1.0 yet, however many releases
      ["tag-first-rc", false],
    ]);
  });

  it("counts a 0.x project as stable when it is released like one: old, many releases, adopted, not a pre-release", () => {
    const ids = ["zero-practised", "zero-young", "zero-unadopted", "zero-prerelease"];
    expect(ids.map((id) => [id, row(id).stable_v1, row(id).stable_release])).toEqual([
      ["zero-practised", false, true],
      ["zero-young", false, false],
      ["zero-unadopted", false, false],
      ["zero-prerelease", false, false],
    ]);
    expect(input("zero-practised", "maturity", "stable_release")).toEqual({
      name: "stable_release",
      value: true,
      points: 4,
      fallback: false,
    });
    expect(row("zero-practised").quality_score).toBe(row("alive").quality_score);
  });

  it("fades the history of a project without life: full within a year, 20% after two, half-way between", () => {
    expect(["alive", "dying", "dead"].map((id) => [id, explained(id).history_share])).toEqual([
      ["alive", 1],
      // 545 days: 1 - 0.8 x (545 - 365) / 365
      ["dying", 0.61],
      ["dead", 0.2],
    ]);
    // the same adopted library, no push for 800 days: experimental, whatever it once was
    expect([row("alive").quality_tier, row("dead").quality_tier]).toEqual(["established", "experimental"]);
    expect(explained("dead").community.points).toBe(4);
  });

  it("finds a quiet library finished from its share of issues closed, never from dependents alone or without a release", () => {
    expect(
      ["finished-closed", "finished-open", "finished-dependents-only", "finished-no-release"].map((id) => [
        id,
        row(id).is_finished,
      ]),
    ).toEqual([
      ["finished-closed", true],
      ["finished-open", false],
      ["finished-dependents-only", false],
      ["finished-no-release", false],
    ]);
    expect(explained("finished-closed").maintenance.points).toBe(20);
  });

  it("scores tracked dependents and a list's dependency-graph count each on its own scale", () => {
    const dependents = (id: string) => input(id, "adoption", "dependents");
    // tracked: (ln(1 + n) / ln(101))^1.25 of 3 points; 39 is the most any repository of the demo's 3,000 has
    expect(["tracked-1", "tracked-10", "tracked-39", "tracked-100"].map(dependents)).toEqual([
      { name: "dependents", value: 1, points: 0, fallback: false },
      { name: "dependents", value: 10, points: 1, fallback: false },
      { name: "dependents", value: 39, points: 2, fallback: false },
      { name: "dependents", value: 100, points: 3, fallback: false },
    ]);
    // the dependency graph: ln(1 + n) / ln(100,001) of 3 points, so 39 of GitHub's dependents earn 1
    expect(["graph-39", "graph-1000", "graph-1900000"].map(dependents)).toEqual([
      { name: "dependents", value: 39, points: 1, fallback: false },
      { name: "dependents", value: 1000, points: 2, fallback: false },
      { name: "dependents", value: 1_900_000, points: 3, fallback: false },
    ]);
  });

  it("scores an unknown response time from every known input, no higher than the last commit's recency", () => {
    const busy = input("unknown-response", "maintenance", "issue_response_median_hours");
    const quiet = input("unknown-response-quiet", "maintenance", "issue_response_median_hours");
    expect(busy).toEqual({ name: "issue_response_median_hours", value: null, points: 5, fallback: true });
    // last commit 300 days ago: recency share (365 - 300) / 335 = 0.19 caps the fallback at 1 of 6
    expect(quiet).toEqual({ name: "issue_response_median_hours", value: null, points: 1, fallback: true });
    expect(explained("unknown-response").fallbacks).toEqual(["issue_response_median_hours"]);
  });

  it("reads conda's monthly estimate as downloads and says so; flags a popular repository's unused package", () => {
    expect(input("conda", "adoption", "downloads_and_pulls_monthly")).toMatchObject({ value: 200_000 });
    expect(explained("conda").estimated).toEqual(["conda_downloads_monthly"]);
    expect([explained("mismatch").flags, explained("alive").flags]).toEqual([["package_mismatch"], []]);
  });

  it("shows unstated documentation signals and registry likes as unknown, scored by their fallback", () => {
    // the description's third, and two thirds at the share all its known inputs earned (about 80%): 3 of 3
    expect(input("docs-unknown", "maturity", "docs_signals")).toEqual({
      name: "docs_signals",
      value: null,
      points: 3,
      fallback: true,
    });
    expect(input("docs-unknown", "adoption", "registry_likes")).toMatchObject({
      value: null,
      fallback: true,
    });
    expect(explained("docs-unknown").fallbacks).toEqual(["registry_likes", "docs_signals"]);
    expect(input("alive", "maturity", "docs_signals")).toEqual({
      name: "docs_signals",
      value: 3,
      points: 3,
      fallback: false,
    });
  });
});
