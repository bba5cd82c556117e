// releases on a hand-made warehouse: accumulated night by night equals one run over every raw row, a rerun of a
// night changes nothing, an earlier night forgets what came later; pre-releases read from the version text.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../core/db.ts";
import { createTable, memoryDb, runTransforms } from "../sql-testing.ts";
import {
  PROJECTS_COLUMNS,
  project,
  RAW_GITHUB_REPOS_COLUMNS,
  RAW_NPM_PACKAGES_COLUMNS,
  RAW_PYPI_PROJECTS_COLUMNS,
} from "./fixtures.ts";

async function warehouse(): Promise<Db> {
  const db = await memoryDb();
  await createTable(db, "projects", PROJECTS_COLUMNS, [project("Acme/Alpha"), project("b/beta")]);
  const gh = (
    run_date: string,
    node_id: string,
    full_name: string,
    tag: string | null,
    at: string | null,
  ) => ({
    run_date,
    node_id,
    full_name,
    latest_release_tag: tag,
    latest_release_at: at,
  });
  await createTable(db, "raw_github_repos", RAW_GITHUB_REPOS_COLUMNS, [
    gh("2026-11-18", "N_Alpha", "Acme/Alpha", "v1.0.0", "2026-11-10 08:00:00"),
    gh("2026-11-19", "N_Alpha", "Acme/Alpha", "v1.0.0", "2026-11-10 08:00:00"),
    gh("2026-11-20", "N_Alpha", "Acme/Alpha", "v1.1.0-rc.1", "2026-11-20 01:00:00"),
    gh("2026-11-18", "N_beta", "b/beta", null, null),
    gh("2026-11-19", "N_beta", "b/beta", "2.0", "2026-11-19 02:00:00"),
    gh("2026-11-20", "N_beta", "b/beta", "2.0", "2026-11-19 02:00:00"),
  ]);
  const py = (run_date: string, name: string, repo: string, version: string, at: string) => ({
    run_date,
    package: name,
    repo_full_name: repo,
    version,
    latest_release_at: at,
  });
  await createTable(db, "raw_pypi_projects", RAW_PYPI_PROJECTS_COLUMNS, [
    py("2026-11-18", "alpha", "acme/alpha", "1.0.0", "2026-11-10 10:00:00"),
    py("2026-11-19", "alpha", "acme/alpha", "1.0.0", "2026-11-10 10:00:00"),
    py("2026-11-20", "alpha", "acme/alpha", "1.1.0rc1", "2026-11-20 02:00:00"),
    py("2026-11-19", "alpha-plugins", "acme/alpha", "0.3.dev2", "2026-11-18 00:00:00"),
    py("2026-11-19", "orphan", "z/zeta", "2.0", "2026-11-01 00:00:00"),
    py("2026-11-20", "betapkg", "b/beta", "2.0.post1", "2026-11-19 05:00:00"),
  ]);
  const npm = (run_date: string, name: string, version: string | null, at: string | null) => ({
    run_date,
    package: name,
    repo_full_name: "acme/alpha",
    version,
    version_published_at: at,
  });
  await createTable(db, "raw_npm_packages", RAW_NPM_PACKAGES_COLUMNS, [
    npm("2026-11-19", "@acme/alpha", "1.0.0-beta.2", "2026-11-15 00:00:00"),
    npm("2026-11-20", "@acme/alpha", "1.0.0", "2026-11-20 03:00:00"),
    // every version unpublished
    npm("2026-11-20", "@acme/gone", null, null),
  ]);
  return db;
}

const READ = `SELECT full_name, source, package, version, strftime(released_at, '%Y-%m-%d %H:%M') AS released_at,
  is_prerelease, strftime(first_seen, '%Y-%m-%d') AS first_seen, node_id
FROM releases ORDER BY source, package, full_name, version`;

const row = (
  full_name: string,
  source: string,
  pkg: string | null,
  version: string,
  released_at: string,
  is_prerelease: boolean,
  first_seen: string,
  node_id: string | null = "N_Alpha",
) => ({ full_name, source, package: pkg, version, released_at, is_prerelease, first_seen, node_id });

const THROUGH_19 = [
  row("Acme/Alpha", "github", null, "v1.0.0", "2026-11-10 08:00", false, "2026-11-18"),
  row("b/beta", "github", null, "2.0", "2026-11-19 02:00", false, "2026-11-19", "N_beta"),
  row("Acme/Alpha", "npm", "@acme/alpha", "1.0.0-beta.2", "2026-11-15 00:00", true, "2026-11-19"),
  row("Acme/Alpha", "pypi", "alpha", "1.0.0", "2026-11-10 10:00", false, "2026-11-18"),
  row("Acme/Alpha", "pypi", "alpha-plugins", "0.3.dev2", "2026-11-18 00:00", true, "2026-11-19"),
  row("z/zeta", "pypi", "orphan", "2.0", "2026-11-01 00:00", false, "2026-11-19", null),
];

const THROUGH_20 = [
  THROUGH_19[0],
  row("Acme/Alpha", "github", null, "v1.1.0-rc.1", "2026-11-20 01:00", true, "2026-11-20"),
  THROUGH_19[1],
  row("Acme/Alpha", "npm", "@acme/alpha", "1.0.0", "2026-11-20 03:00", false, "2026-11-20"),
  THROUGH_19[2],
  THROUGH_19[3],
  row("Acme/Alpha", "pypi", "alpha", "1.1.0rc1", "2026-11-20 02:00", true, "2026-11-20"),
  THROUGH_19[4],
  row("b/beta", "pypi", "betapkg", "2.0.post1", "2026-11-19 05:00", false, "2026-11-20", "N_beta"),
  THROUGH_19[5],
];

describe("releases", () => {
  let nightly: Db;
  beforeAll(async () => {
    nightly = await warehouse();
    for (const night of ["2026-11-18", "2026-11-19", "2026-11-20"]) {
      await runTransforms(nightly, ["releases"], night);
    }
  });
  afterAll(() => nightly.close());

  it("accumulates night by night exactly what one run over every raw row finds", async () => {
    expect(await nightly.all(READ)).toEqual(THROUGH_20);
    const once = await warehouse();
    await runTransforms(once, ["releases"], "2026-11-20");
    expect(await once.all(READ)).toEqual(THROUGH_20);
    once.close();
  });

  it("gives the same table when a night runs again, and forgets later nights when an earlier one does", async () => {
    await runTransforms(nightly, ["releases"], "2026-11-20");
    expect(await nightly.all(READ)).toEqual(THROUGH_20);
    await runTransforms(nightly, ["releases"], "2026-11-19");
    expect(await nightly.all(READ)).toEqual(THROUGH_19);
    await runTransforms(nightly, ["releases"], "2026-11-20");
    expect(await nightly.all(READ)).toEqual(THROUGH_20);
  });

  it("reads PEP 440 pre-releases from the version text", async () => {
    const versions = [
      ["1.0a1", true],
      ["1.0.0rc1", true],
      ["2.0b3", true],
      ["1.0.dev0", true],
      ["1.0c1", true],
      ["1.0-alpha", true],
      ["1.0a1.post1", true],
      ["1.0.post1", false],
      ["1.0", false],
      ["1.0+cpu", false],
      ["1.0+abc", false],
      ["2024.1", false],
    ] as const;
    const rows = await nightly.all<{ v: string; pre: boolean }>(
      `SELECT v, release_pep440_pre(v) AS pre FROM unnest([${versions.map(([v]) => `'${v}'`).join(", ")}]) AS t(v)`,
    );
    expect(rows.map((r) => [r.v, r.pre])).toEqual(versions.map(([v, pre]) => [v, pre]));
  });
});
