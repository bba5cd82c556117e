// The score stage over a small hand-made warehouse: exact components, parts, explanations and tiers; the finished-
// project floor, missing REST inputs, an archived repository, npm/Docker/HF adoption, dependents, carry-forward.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb, sqlLiteral } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { ensureRawTables, score } from "./score.ts";

const testdata = path.join(path.dirname(fileURLToPath(import.meta.url)), "testdata");

async function loadNdjson(db: Db, table: string, file: string) {
  await db.run(
    `INSERT INTO ${table} BY NAME SELECT * FROM read_json_auto(${sqlLiteral(path.join(testdata, file))})`,
  );
}

describe("score stage", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb(":memory:");
    await ensureRawTables(db);
    await loadNdjson(db, "raw_github_repos", "score-raw-github.ndjson");
    await loadNdjson(db, "raw_pypi_projects", "score-raw-pypi.ndjson");
    await loadNdjson(db, "raw_pypi_downloads", "score-raw-downloads.ndjson");
    await loadNdjson(db, "raw_github_activity", "score-raw-activity.ndjson");
    await loadNdjson(db, "raw_npm_packages", "score-raw-npm.ndjson");
    await loadNdjson(db, "raw_npm_downloads", "score-raw-npm-downloads.ndjson");
    await loadNdjson(db, "raw_dockerhub_repos", "score-raw-dockerhub.ndjson");
    await loadNdjson(db, "raw_hf_models", "score-raw-hf.ndjson");
  });
  afterAll(() => db.close());

  it("computes exact components, scores and tiers", async () => {
    const report = await score({ db, runDate: "2026-11-20", logger: silentLogger });
    expect(report).toMatchObject({ run_date: "2026-11-20", repos: 7, stale: 1 });
    expect(report.by_tier).toEqual({ emerging: 1, established: 1, experimental: 4, verified: 1 });
    const rows = await db.all(
      `SELECT full_name, slug, domain, pypi_package, downloads_monthly,
              [maintenance_score, adoption_score, maturity_score, community_score] AS components, quality_score,
              quality_tier, is_stale
       FROM score_quality ORDER BY quality_score DESC`,
    );
    const expected: [string, string, string, string | null, number, number[], number, string, boolean][] = [
      ["acme/ragkit", "acme--ragkit", "rag", "ragkit", 10_000_300, [25, 21, 24, 19], 89, "verified", false],
      [
        "kept/stablelib",
        "kept--stablelib",
        "rag",
        "stablelib",
        50_000,
        [20, 12, 22, 12],
        66,
        "established",
        false,
      ],
      // 0.x, but released like a stable library (12 releases in two years, 191,324 downloads a month) and finished
      ["mid/vecstore", "mid--vecstore", "vector-db", null, 100_000, [20, 13, 16, 9], 58, "emerging", false],
      // archived, carried forward from yesterday's row, and no push for 688 days: its history has faded to 29%
      ["Dept/DStore", "dept--dstore", "mlops", "dstore", 1_000_000, [0, 17, 12, 5], 34, "experimental", true],
      [
        "quiet/nearkit",
        "quiet--nearkit",
        "vector-db",
        "nearkit",
        0,
        [15, 1, 8, 3],
        27,
        "experimental",
        false,
      ],
      // no commit for 902 days: dead, whatever it once was (its history kept at dead_history_share)
      ["gone/oldlib", "gone--oldlib", "rag", "oldlib", 50_000, [0, 12, 9, 2], 23, "experimental", false],
      ["solo/tiny-agent", "solo--tiny-agent", "agents", null, 0, [0, 0, 1, 0], 1, "experimental", false],
    ];
    expect(rows).toEqual(
      expected.map(
        ([full_name, slug, domain, pypi_package, downloads_monthly, components, score, tier, stale]) => ({
          full_name,
          slug,
          domain,
          pypi_package,
          downloads_monthly,
          components,
          quality_score: score,
          quality_tier: tier,
          is_stale: stale,
        }),
      ),
    );
  });

  it("classifies every repository into a domain and stack layer", async () => {
    // the rules themselves are feat_classification's (tested there); scoring needs one row per repository
    const rows = await db.all(
      "SELECT node_id, domain, stack_layer FROM feat_classification ORDER BY node_id",
    );
    expect(rows).toEqual([
      { node_id: "R_A", domain: "rag", stack_layer: "orchestration" },
      { node_id: "R_B", domain: "agents", stack_layer: "orchestration" },
      { node_id: "R_C", domain: "vector-db", stack_layer: "data" },
      { node_id: "R_D", domain: "mlops", stack_layer: "infra" },
      { node_id: "R_E", domain: "vector-db", stack_layer: "data" },
      { node_id: "R_F", domain: "rag", stack_layer: "orchestration" },
      { node_id: "R_G", domain: "rag", stack_layer: "orchestration" },
    ]);
  });

  it("explains every component by its parts", async () => {
    const rows = await db.all<Record<string, number | string>>(
      `SELECT node_id,
              [m_commits, m_active_weeks, m_last_commit, m_issue_response, m_release, m_finished_floor] AS m,
              [a_stars, a_forks, a_downloads, a_dependents, a_likes] AS a,
              [t_age, t_releases, t_stable_version, t_stable_share, t_license, t_docs] AS t,
              [c_contributors, c_merged_prs, c_issues, c_watchers] AS c
       FROM score_components ORDER BY node_id`,
    );
    expect(rows).toEqual([
      // every part at its cap but releases (the most of any registry, 60 of 100), dependents (2 tracked
      // repositories of the dependents_tracked_cap of 100: (ln 3 / ln 101)^1.25 of 3 points, 0.498, rounded to 0)
      // and community's merged pull requests and issues
      { node_id: "R_A", m: [7, 4, 4, 6, 4, 0], a: [9, 3, 8, 0, 1], t: [6, 5, 4, 2, 4, 3], c: [10, 2, 2, 5] },
      // REST unknown and nothing known earned: the unknown responsiveness and contributors earn the known share, 0
      { node_id: "R_B", m: [0, 0, 0, 0, 0, 0], a: [0, 0, 0, 0, 0], t: [0, 0, 0, 0, 0, 1], c: [0, 0, 0, 0] },
      // 0.x but stable in practice (4 points); finished, so its 15 maintenance points are raised to 20
      { node_id: "R_C", m: [4, 1, 3, 3, 4, 5], a: [5, 1, 6, 0, 1], t: [2, 3, 4, 1, 4, 2], c: [4, 1, 2, 2] },
      // archived: no maintenance at all, whatever the activity; 688 days without a push or release keep 29% of
      // maturity's history and of the community (licence and docs stay); unknown contributors take the share all the
      // known inputs earned (about 40%: 4 of 10)
      { node_id: "R_D", m: [0, 0, 0, 0, 0, 0], a: [8, 2, 7, 0, 0], t: [2, 1, 1, 1, 4, 3], c: [4, 0, 0, 1] },
      // no REST row: active weeks estimated from commits_365d (20 of 26 -> 3); responsiveness takes the share all
      // the known inputs earned, not maintenance's alone (about 30% -> 2 of 6)
      { node_id: "R_E", m: [2, 3, 4, 2, 4, 0], a: [1, 0, 0, 0, 0], t: [1, 1, 0, 1, 4, 1], c: [3, 0, 0, 0] },
      // finished: 6 points earned, raised to the floor of 20
      { node_id: "R_F", m: [0, 0, 1, 5, 0, 14], a: [6, 1, 5, 0, 0], t: [6, 4, 4, 2, 4, 2], c: [5, 2, 3, 2] },
      // the same library dead for 902 days: its history kept at dead_history_share (20%)
      { node_id: "R_G", m: [0, 0, 0, 0, 0, 0], a: [6, 1, 5, 0, 0], t: [1, 1, 1, 0, 4, 2], c: [1, 0, 1, 0] },
    ]);
  });

  it("keeps a finished project's maintenance floor, and gives none to an abandoned one with the same churn", async () => {
    const rows = await db.all(
      `SELECT node_id, commits_90d, active_weeks, days_since_commit, issue_response_hours, open_issues, is_finished,
              maintenance_score
       FROM score_components WHERE node_id IN ('R_F', 'R_G') ORDER BY node_id`,
    );
    expect(rows).toEqual([
      // old, v2.4.0, 50,000 downloads a month, 4 open issues answered in 48 hours, a commit 292 days ago
      {
        node_id: "R_F",
        commits_90d: 0,
        active_weeks: 1,
        days_since_commit: 292,
        issue_response_hours: 48,
        open_issues: 4,
        is_finished: true,
        maintenance_score: 20,
      },
      // the same release and downloads, but no commit in 902 days and 60 issues left for 900 hours
      {
        node_id: "R_G",
        commits_90d: 0,
        active_weeks: 0,
        days_since_commit: 902,
        issue_response_hours: 900,
        open_issues: 60,
        is_finished: false,
        maintenance_score: 0,
      },
    ]);
  });

  it("adds npm, Docker Hub (pulls per month) and Hugging Face adoption, likes, and counts dependents", async () => {
    const rows = await db.all(
      `SELECT f.full_name, f.pypi_downloads_monthly AS pypi, f.npm_downloads_monthly AS npm, f.hf_downloads_monthly AS hf,
              f.docker_pulls, f.docker_pulls_monthly, f.registry_likes, f.dependents, s.downloads_and_pulls_monthly,
              s.adoption_score
       FROM feat_repos f JOIN score_components s USING (node_id)
       WHERE f.node_id IN ('R_A', 'R_C') ORDER BY f.node_id`,
    );
    expect(rows).toEqual([
      // nearkit and stablelib require ragkit; oldlib only as an optional extra (not counted) and ragkit-lite;
      // 150 million pulls over the 79.8 months since the image was registered
      {
        full_name: "acme/ragkit",
        pypi: 10_000_300,
        npm: 0,
        hf: 0,
        docker_pulls: 150_000_000,
        docker_pulls_monthly: 1_879_699,
        registry_likes: 300,
        dependents: 2,
        downloads_and_pulls_monthly: 11_879_999,
        adoption_score: 21,
      },
      {
        full_name: "mid/vecstore",
        pypi: 0,
        npm: 40_000,
        hf: 60_000,
        docker_pulls: 2_000_000,
        docker_pulls_monthly: 91_324,
        registry_likes: 52,
        dependents: 0,
        downloads_and_pulls_monthly: 191_324,
        adoption_score: 13,
      },
    ]);
  });

  it("writes an explanation whose points add up, with unknown inputs named", async () => {
    const rows = await db.all<{ node_id: string; explanation: string }>(
      "SELECT node_id, explanation FROM score_explanations ORDER BY node_id",
    );
    expect(rows.map((r) => r.node_id)).toEqual(["R_A", "R_B", "R_C", "R_D", "R_E", "R_F", "R_G"]);
    const byId = Object.fromEntries(rows.map((r) => [r.node_id, JSON.parse(r.explanation)]));
    const input = (name: string, value: unknown, points: number, fallback = false) => ({
      name,
      value,
      points,
      fallback,
    });
    expect(byId.R_C).toEqual({
      maintenance: {
        points: 20,
        max_points: 25,
        inputs: [
          input("commits_90d", 30, 4),
          input("active_weeks_52w", 9, 1),
          input("days_since_last_commit", 100, 3),
          input("issue_response_median_hours", 100, 3),
          input("days_since_release", 36, 4),
          // finished (two years old, stable in practice, 191,324 downloads, issues answered in 100 hours)
          input("finished_project_floor", true, 5),
        ],
      },
      adoption: {
        points: 13,
        max_points: 25,
        inputs: [
          input("stars", 1000, 5),
          input("forks", 100, 1),
          // 40,000 npm and 60,000 Hub downloads, 2 million pulls over 21.9 months
          input("downloads_and_pulls_monthly", 191_324, 6),
          input("dependents", 0, 0),
          input("registry_likes", 52, 1),
        ],
      },
      maturity: {
        points: 16,
        max_points: 25,
        inputs: [
          input("age_days", 730, 2),
          input("releases", 12, 3),
          // 0.4.2, but 12 releases in two years, the latest not a pre-release, 191,324 downloads a month
          input("stable_release", true, 4),
          // unknown (no PyPI history): the share all the known inputs earned, about 60% -> 1 of 2
          input("stable_share", null, 1, true),
          input("has_license", true, 4),
          input("docs_signals", 2, 2),
        ],
      },
      community: {
        points: 9,
        max_points: 25,
        inputs: [
          input("contributors", 25, 4),
          input("merged_prs", 10, 1),
          input("issues", 100, 2),
          input("watchers", 50, 2),
        ],
      },
      archived: false,
      finished_project: true,
      history_share: 1,
      fallbacks: ["stable_share"],
      estimated: [],
      flags: [],
    });
    // key order is part of the format (publish writes the JSON as is)
    expect(Object.keys(byId.R_C)).toEqual([
      "maintenance",
      "adoption",
      "maturity",
      "community",
      "archived",
      "finished_project",
      "history_share",
      "fallbacks",
      "estimated",
      "flags",
    ]);
    const raw = rows.find((r) => r.node_id === "R_C")?.explanation;
    expect(raw).toMatch(
      /^\{"maintenance":\{"points":20,"max_points":25,"inputs":\[\{"name":"commits_90d","value":30,"points":4,"fallback":false\}/,
    );
    // unknown inputs are exactly those shown null and marked fallback; estimated ones have a value
    expect(Object.fromEntries(rows.map((r) => [r.node_id, JSON.parse(r.explanation).fallbacks]))).toEqual({
      R_A: [],
      R_B: ["issue_response_median_hours", "contributors"],
      R_C: ["stable_share"],
      R_D: ["issue_response_median_hours", "contributors"],
      R_E: ["issue_response_median_hours", "contributors"],
      R_F: [],
      R_G: [],
    });
    for (const e of Object.values(byId)) {
      const marked = ["maintenance", "adoption", "maturity", "community"].flatMap((c) =>
        e[c].inputs.filter((i: { fallback: boolean }) => i.fallback),
      );
      expect(marked.map((i: { name: string }) => i.name).sort()).toEqual([...e.fallbacks].sort());
      expect(marked.every((i: { value: unknown }) => i.value === null)).toBe(true);
    }
    // no REST weekly series: weeks from the GraphQL count of the year (R_E), or none in a year without a push (R_B)
    expect(byId.R_E.estimated).toEqual(["active_weeks_52w"]);
    expect(byId.R_E.maintenance.inputs[1]).toEqual(input("active_weeks_52w", 20, 3));
    expect([byId.R_D.history_share, byId.R_G.history_share]).toEqual([0.29, 0.2]);
    expect([byId.R_D.archived, byId.R_F.finished_project, byId.R_G.finished_project]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("scores an earlier date from the history known then", async () => {
    const report = await score({ db, runDate: "2026-11-18", logger: silentLogger });
    expect(report).toMatchObject({ repos: 1, stale: 0 });
    // that night's row: 1 watcher (the later one has 2,000 and earns community points); its unknown contributors
    // take the share all its known inputs earned (1 of 10)
    const [d] = await db.all("SELECT description, community_score FROM score_quality");
    expect(d).toEqual({ description: "old row, superseded", community_score: 1 });
  });

  it("fails with a hint when there is nothing to score", async () => {
    await expect(score({ db, runDate: "2020-01-01", logger: silentLogger })).rejects.toMatchObject({
      message: expect.stringMatching(/no repositories/),
      hint: expect.stringMatching(/projintel collect/),
    });
  });
});
