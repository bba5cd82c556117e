// One download figure, the same on every published surface (issue 35, item 5): a project whose figure is unknown (NULL
// in the warehouse, as a release built from a list that states none holds it: pipeline/sql/rate/feat_repos.sql) is
// null in the JSON routes, the Parquet and Arrow datasets and the public database, and "unknown" on its page; a known
// figure, and a real 0, are the same number everywhere. Sorting by downloads puts the unknown last either way.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { tableFromIPC } from "apache-arrow";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../api-shim/app.ts";
import { openEmbeddedQuotaStore, type QuotaStore } from "../api-shim/quota/quota.ts";
import { openReleaseReader, type ReleaseReader } from "../api-shim/release-reader.ts";
import { listenOnLoopback } from "../api-shim/testing.ts";
import { type Db, openDb, sqlLiteral } from "../core/db.ts";
import { resolvePublicDb } from "../core/public-db.ts";
import { openQueryRunner, type QueryRunner } from "../core/query/index.ts";
import { createLocalStorage } from "../core/storage.ts";
import { publishPublicDb } from "../pipeline/public-db.ts";
import { ensureRawTables } from "../pipeline/score.ts";
import { publishRelease } from "../publish/release.ts";
import { SIM_RELEASE_NIGHTS as SIM_NIGHTS, type SimRelease, simRelease } from "./sim-release.ts";

interface Picked {
  full_name: string;
  slug: string;
  domain: string;
  downloads: number | null;
}

let sim: SimRelease;
let release: ReleaseReader;
let quotas: QuotaStore;
let app: FastifyInstance;
let base: string;
/** The public database the live release names, read as `projintel sql` and POST /api/v1/query read it. */
let runner: QueryRunner;
let files: string;
/** The project made unknown, one with a known figure above 0 and one with a real 0 (no package downloaded). */
let unknown: Picked;
let known: Picked;
let zero: Picked;

const get = async (url: string) => {
  const res = await fetch(`${base}${url}`);
  expect(res.status, url).toBe(200);
  return res;
};
// biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON it asked for
const json = async (url: string): Promise<any> => (await get(url)).json();

/** Rows of a query over the public database, as objects. */
async function sql(query: string): Promise<Record<string, unknown>[]> {
  const result = await runner.run(query);
  const names = result.columns.map((c) => c.name);
  return result.rows.map((row) => Object.fromEntries(names.map((n, i) => [n, row[i]])));
}

/** A release file downloaded over HTTP into the test's folder, for DuckDB to read as a user would. */
async function download(file: string): Promise<string> {
  const target = path.join(files, file);
  await writeFile(target, Buffer.from(await (await get(`/datasets/${file}`)).arrayBuffer()));
  return target;
}

async function pick(db: Db, where: string): Promise<Picked> {
  const [row] = await db.all<Picked>(
    `SELECT full_name, slug, domain, downloads_monthly AS downloads FROM projects
     WHERE ${where} ORDER BY downloads_monthly DESC, full_name LIMIT 1`,
  );
  if (!row) throw new Error(`the simulated release has no project where ${where}`);
  return { ...row, downloads: row.downloads === null ? null : Number(row.downloads) };
}

beforeAll(async () => {
  files = await mkdtemp(path.join(os.tmpdir(), "downloads-unknown-"));
  sim = await simRelease();
  const db = await openDb(path.join(sim.stateDir, "warehouse.duckdb"));
  try {
    known = await pick(db, "downloads_monthly > 0");
    zero = await pick(db, "downloads_monthly = 0");
    unknown = await pick(db, `downloads_monthly = 0 AND full_name <> ${sqlLiteral(zero.full_name)}`);
    // the figure no source gave, tonight as in the current tables
    const node = `(SELECT node_id FROM projects WHERE full_name = ${sqlLiteral(unknown.full_name)})`;
    await db.run(
      `UPDATE projects SET downloads_monthly = NULL, pypi_downloads_monthly = NULL, npm_downloads_monthly = NULL,
         hf_downloads_monthly = NULL WHERE node_id = ${node}`,
    );
    await db.run(`UPDATE score_quality SET downloads_monthly = NULL WHERE node_id = ${node}`);
    await db.run(
      `UPDATE snapshots SET downloads_monthly = NULL WHERE node_id = ${node} AND date = (SELECT max(date) FROM snapshots)`,
    );
    unknown = await pick(db, `full_name = ${sqlLiteral(unknown.full_name)}`);
    const runDate = String(
      (await db.all<{ d: string }>("SELECT max(run_date)::VARCHAR AS d FROM projects"))[0]?.d,
    );
    await publishPublicDb({ db, stateRoot: sim.stateDir, runDate, keepRunDates: [] });
    await publishRelease({ db, config: sim.config, force: true });
  } finally {
    db.close();
  }
  release = await openReleaseReader({ storage: createLocalStorage(sim.stateDir), checkEveryMs: 0 });
  quotas = await openEmbeddedQuotaStore();
  app = buildApp({ config: sim.config, release, quotas });
  base = `http://127.0.0.1:${await listenOnLoopback(app)}`;
  const live = release.manifest();
  const publicDb = await resolvePublicDb(sim.stateDir, {
    run_date: String(live?.run_date),
    ...(live?.public_db ? { public_db: live.public_db } : {}),
  });
  runner = await openQueryRunner({ file: String(publicDb?.path), threads: 1 });
});

afterAll(async () => {
  runner?.close();
  await app?.close();
  release?.close();
  await quotas?.close();
  await rm(files, { recursive: true, force: true });
  await sim?.cleanup();
});

describe("a download figure on every published surface", () => {
  it("is null for an unknown figure and the same number for a known one, in JSON, Parquet, Arrow and SQL", async () => {
    expect(unknown.downloads).toBe(null);
    expect(known.downloads).toBeGreaterThan(0);
    const expected = [unknown, known, zero].map((p) => [p.full_name, p.downloads]);

    // the JSON routes: the detail (top and by registry), the quality list of its domain, the name search
    const details = await Promise.all([unknown, known, zero].map((p) => json(`/api/v1/projects/${p.slug}`)));
    expect(details.map((d) => [d.data.full_name, d.data.downloads_monthly])).toEqual(expected);
    expect(details.map((d) => [d.data.full_name, d.data.downloads.monthly_total])).toEqual(expected);
    // tonight's night of the history is the current figure: null for the unknown one
    expect(details.map((d) => [d.data.full_name, d.data.history.downloads_monthly.at(-1)])).toEqual(expected);
    const listed = await Promise.all(
      [unknown, known, zero].map(async (p) => {
        const page = await json(`/api/v1/quality?domain=${p.domain}&limit=200`);
        const record = page.data.find((r: { full_name: string }) => r.full_name === p.full_name);
        return [record.full_name, record.downloads_monthly];
      }),
    );
    expect(listed).toEqual(expected);
    const found = await Promise.all(
      [unknown, known, zero].map(async (p) => {
        const page = await json(`/api/v1/projects?q=${encodeURIComponent(p.full_name)}`);
        return [page.data[0].full_name, page.data[0].downloads_monthly];
      }),
    );
    expect(found).toEqual(expected);

    // the Parquet datasets as DuckDB reads them, and the Arrow file as apache-arrow does
    const names = [unknown, known, zero].map((p) => sqlLiteral(p.full_name)).join(", ");
    const reader = await openDb(":memory:");
    try {
      for (const file of ["quality.parquet", "projects.parquet"]) {
        const rows = await reader.all<{ full_name: string; downloads: bigint | null }>(
          `SELECT full_name, downloads_monthly AS downloads FROM read_parquet(${sqlLiteral(await download(file))})
           WHERE full_name IN (${names})`,
        );
        const byName = new Map(
          rows.map((r) => [r.full_name, r.downloads === null ? null : Number(r.downloads)]),
        );
        expect(
          [unknown, known, zero].map((p) => [p.full_name, byName.get(p.full_name)]),
          file,
        ).toEqual(expected);
      }
    } finally {
      reader.close();
    }
    const arrow = tableFromIPC(Buffer.from(await (await get("/datasets/quality.arrow")).arrayBuffer()));
    const arrowNames = arrow.getChild("full_name")?.toArray() as string[];
    const arrowDownloads = arrow.getChild("downloads_monthly");
    expect(
      [unknown, known, zero].map((p) => {
        const value = arrowDownloads?.get(arrowNames.indexOf(p.full_name));
        return [p.full_name, value === null ? null : Number(value)];
      }),
    ).toEqual(expected);

    // the public database the release names: current figure and tonight's snapshot
    const current = await sql(
      `SELECT p.full_name, p.downloads_monthly AS now, s.downloads_monthly AS tonight
       FROM projects p JOIN snapshots s ON s.node_id = p.node_id AND s.date = p.run_date
       WHERE p.full_name IN (${names})`,
    );
    const byName = new Map(current.map((r) => [r.full_name, r]));
    expect([unknown, known, zero].map((p) => [p.full_name, byName.get(p.full_name)?.now])).toEqual(expected);
    expect([unknown, known, zero].map((p) => [p.full_name, byName.get(p.full_name)?.tonight])).toEqual(
      expected,
    );
  });

  it("is null on the nights before the registries were read, in the public database, the history's Parquet and the API", async () => {
    // the shared release reads the registries on its last night only: its first SIM_NIGHTS - 1 nights hold no figure
    const nights = await sql(
      `SELECT date::VARCHAR AS date, count(*) FILTER (WHERE downloads_monthly IS NULL)::INTEGER AS unknown,
         count(*) FILTER (WHERE downloads_monthly > 0)::INTEGER AS counted
       FROM snapshots GROUP BY date ORDER BY date`,
    );
    const runDate = String(nights.at(-1)?.date);
    const before = nights.slice(0, -1);
    expect(before.map((n) => n.date)).toEqual(
      Array.from({ length: SIM_NIGHTS - 1 }, (_, i) =>
        new Date(Date.parse(runDate) - (SIM_NIGHTS - 1 - i) * 86_400_000).toISOString().slice(0, 10),
      ),
    );
    const [counts] = await sql(
      `SELECT count(DISTINCT node_id)::INTEGER AS n FROM snapshots WHERE date = DATE ${sqlLiteral(String(before[0]?.date))}`,
    );
    // every repository of every night before is unknown, none counted; tonight only the figure no source gave
    expect(before.map((n) => [n.unknown, n.counted])).toEqual(before.map(() => [counts?.n, 0]));
    expect(nights.at(-1)?.unknown).toBe(1);
    expect(Number(nights.at(-1)?.counted)).toBeGreaterThan(0);

    // the history's Parquet nights, as the nightly wrote them (before this test made one figure unknown)
    const reader = await openDb(":memory:");
    try {
      const night = (date: unknown) =>
        sqlLiteral(path.join(sim.stateDir, "history", "snapshots", `date=${date}`, "data.parquet"));
      const [first] = await reader.all<{ unknown: number; rows: number }>(
        `SELECT count(*) FILTER (WHERE downloads_monthly IS NULL)::INTEGER AS unknown, count(*)::INTEGER AS rows
         FROM read_parquet(${night(before[0]?.date)})`,
      );
      expect(first).toEqual({ unknown: counts?.n, rows: counts?.n });
      const [last] = await reader.all<{ downloads: bigint | null }>(
        `SELECT downloads_monthly AS downloads FROM read_parquet(${night(before.at(-1)?.date)})
         WHERE full_name = ${sqlLiteral(known.full_name)}`,
      );
      expect(last).toEqual({ downloads: null });
      const [tonight] = await reader.all<{ downloads: bigint | null }>(
        `SELECT downloads_monthly AS downloads FROM read_parquet(${night(runDate)})
         WHERE full_name = ${sqlLiteral(known.full_name)}`,
      );
      expect(Number(tonight?.downloads)).toBe(known.downloads);
    } finally {
      reader.close();
    }

    // the API's history of the same project: null on every night before, the figure tonight
    const detail = await json(`/api/v1/projects/${known.slug}`);
    expect(detail.data.history.to).toBe(runDate);
    expect(detail.data.history.downloads_monthly).toEqual([...Array(89).fill(null), known.downloads]);
  });

  it("is allowed in a warehouse created when snapshots held downloads_monthly NOT NULL, whose rows stay", async () => {
    const db = await openDb(":memory:");
    try {
      await db.run(
        `CREATE TABLE snapshots AS SELECT DATE '2026-11-01' AS date, 'R_1' AS node_id, 'a/b' AS full_name, 1 AS stars,
           1 AS forks, 1 AS watchers, 1 AS open_issues, 1 AS contributors, 1 AS commits_30d, 5::BIGINT AS downloads_monthly,
           1 AS dependents, 1 AS quality_score, 1 AS maintenance_score, 1 AS adoption_score, 1 AS maturity_score,
           1 AS community_score, 'emerging' AS quality_tier, 'active' AS lifecycle_stage`,
      );
      await db.run("ALTER TABLE snapshots ALTER COLUMN downloads_monthly SET NOT NULL");
      const insert = `INSERT INTO snapshots SELECT * REPLACE (DATE '2026-11-02' AS date, NULL AS downloads_monthly)
        FROM snapshots WHERE date = DATE '2026-11-01'`;
      await expect(db.run(insert)).rejects.toThrow(/NOT NULL constraint failed: snapshots.downloads_monthly/);
      // every night runs the kept tables' DDL: twice is the same as once
      await ensureRawTables(db);
      await ensureRawTables(db);
      await db.run(insert);
      expect(
        await db.all(
          "SELECT date::VARCHAR AS date, downloads_monthly AS downloads FROM snapshots ORDER BY date",
        ),
      ).toEqual([
        { date: "2026-11-01", downloads: 5 },
        { date: "2026-11-02", downloads: null },
      ]);
    } finally {
      db.close();
    }
  });

  it("sorts the unknown figure last in both directions", async () => {
    for (const direction of ["DESC", "ASC"]) {
      const rows = await sql(
        `SELECT full_name FROM projects ORDER BY downloads_monthly ${direction}, full_name`,
      );
      expect(rows.at(-1)?.full_name, direction).toBe(unknown.full_name);
    }
  });

  it("says unknown on the project's page, never 0, and 0 for a real 0", async () => {
    const [owner, repo] = unknown.full_name.split("/");
    const page = await (await get(`/p/${owner}/${repo}`)).text();
    expect(page).toContain("Monthly downloads unknown.</p>");
    expect(page).toContain("<p>Monthly downloads unknown: no download figure was read for it.</p>");
    const [zeroOwner, zeroRepo] = zero.full_name.split("/");
    const zeroPage = await (await get(`/p/${zeroOwner}/${zeroRepo}`)).text();
    expect(zeroPage).toContain("Monthly downloads 0.</p>");
  });
});
