// Test helpers shared by publish and api-shim tests: a hand-made score_quality table of 12 repositories
// in three domains, covering subcategories, every tier and ties broken by stars, then by full_name.
import { fileURLToPath } from "node:url";
import { configSchema } from "../core/config.ts";
import { type Db, openDb, runSqlFile } from "../core/db.ts";
import { createPublicTables } from "../pipeline/public-testing.ts";
import { setBadgeMarkdownVariable } from "./badges.ts";
import { decodeCollectionIndex } from "./collection-index.ts";
import { renderCollection, setRenderVariables } from "./render-collection.ts";
import { type CollectionSpec, shardOf } from "./route-spec.ts";
import { recordBytes } from "./select.ts";

/** The warehouse tables project details read beyond the public ones (feat_repos, score_explanations, ds_status). */
export const DETAIL_FIXTURE_SQL = fileURLToPath(new URL("testdata/detail-tables.sql", import.meta.url));
/** The warehouse tables the activity endpoints read (ds_velocity, ds_contributors_trending, …, ds_lab_projects). */
export const ACTIVITY_FIXTURE_SQL = fileURLToPath(new URL("testdata/activity-tables.sql", import.meta.url));
/** The warehouse tables the digest endpoints read (ds_whats_new, ds_briefings). */
export const DIGEST_FIXTURE_SQL = fileURLToPath(new URL("testdata/digest-tables.sql", import.meta.url));

export interface FixtureRow {
  full_name: string;
  domain: string;
  subcategory: string | null;
  quality_score: number;
  stars: number;
}

/** Listed out of canonical order on purpose: publish must sort. */
export const FIXTURE_ROWS: readonly FixtureRow[] = [
  { full_name: "echo/eta", domain: "mcp", subcategory: "mcp-servers", quality_score: 39, stars: 10 },
  { full_name: "bolt/gamma", domain: "mcp", subcategory: "mcp-servers", quality_score: 85, stars: 1200 },
  {
    full_name: "acme/alpha-server",
    domain: "mcp",
    subcategory: "mcp-servers",
    quality_score: 92,
    stars: 5000,
  },
  { full_name: "core/epsilon", domain: "mcp", subcategory: null, quality_score: 60, stars: 50 },
  { full_name: "acme/beta-sdk", domain: "mcp", subcategory: "mcp-sdks", quality_score: 85, stars: 1200 },
  { full_name: "dyn/zeta", domain: "mcp", subcategory: "mcp-servers", quality_score: 45, stars: 300 },
  { full_name: "core/delta", domain: "mcp", subcategory: "mcp-clients", quality_score: 71, stars: 800 },
  { full_name: "echo/theta", domain: "mcp", subcategory: "mcp-sdks", quality_score: 12, stars: 2 },
  { full_name: "fox/kappa", domain: "rag", subcategory: "rag-frameworks", quality_score: 59, stars: 20000 },
  { full_name: "fox/iota", domain: "rag", subcategory: "rerankers", quality_score: 80, stars: 900 },
  { full_name: "gnu/lambda", domain: "rag", subcategory: "rag-frameworks", quality_score: 40, stars: 100 },
  { full_name: "hive/mu", domain: "agents", subcategory: null, quality_score: 0, stars: 0 },
];

const DDL =
  "CREATE TABLE score_quality (run_date DATE, node_id VARCHAR, full_name VARCHAR, owner VARCHAR, name VARCHAR, slug VARCHAR, description VARCHAR, stars BIGINT, forks BIGINT, language VARCHAR, license VARCHAR, domain VARCHAR, subcategory VARCHAR, stack_layer VARCHAR, pypi_package VARCHAR, downloads_monthly BIGINT, maintenance_score INTEGER, adoption_score INTEGER, maturity_score INTEGER, community_score INTEGER, quality_score INTEGER, quality_tier VARCHAR)";

const tier = (s: number) =>
  s >= 80 ? "verified" : s >= 60 ? "established" : s >= 40 ? "emerging" : "experimental";

/** The four components of a score, each 0–25, adding up to it. */
export const components = (s: number): [number, number, number, number] => [
  Math.min(25, s),
  Math.min(25, Math.max(0, s - 25)),
  Math.min(25, Math.max(0, s - 50)),
  Math.max(0, s - 75),
];

/** The fixture row of a repository. */
export function fixtureRow(fullName: string): FixtureRow {
  const row = FIXTURE_ROWS.find((r) => r.full_name === fullName);
  if (!row) throw new Error(`no fixture row ${fullName}`);
  return row;
}

/** The record publish renders for a fixture row, in published field order. */
export function fixtureRecord(row: FixtureRow) {
  const [owner = "", name = ""] = row.full_name.split("/");
  const [maintenance, adoption, maturity, community] = components(row.quality_score);
  const bare = row.quality_score === 0;
  return {
    full_name: row.full_name,
    name,
    description: bare ? null : `${name} does things`,
    stars: row.stars,
    forks: Math.floor(row.stars / 10),
    language: bare ? null : "Python",
    license: bare ? null : "MIT",
    subcategory: row.subcategory,
    pypi_package: bare ? null : name,
    // unknown (NULL in the warehouse) is null in the record, as in the datasets: never 0
    downloads_monthly: bare ? null : row.stars * 3,
    quality_score: row.quality_score,
    quality_tier: tier(row.quality_score),
    maintenance_score: maintenance,
    adoption_score: adoption,
    maturity_score: maturity,
    community_score: community,
    slug: `${owner}--${name}`,
  };
}

/** Creates score_quality in `db` and fills it with `rows` for `runDate`. */
export async function loadQualityRows(
  db: Db,
  rows: readonly FixtureRow[] = FIXTURE_ROWS,
  runDate = "2026-03-01",
) {
  await db.run("DROP TABLE IF EXISTS score_quality");
  await db.run(DDL);
  for (const [i, row] of rows.entries()) {
    const r = fixtureRecord(row);
    const [owner] = row.full_name.split("/");
    await db.run(
      "INSERT INTO score_quality VALUES ($1::DATE, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'interface', $14, $15, $16, $17, $18, $19, $20, $21)",
      [
        runDate,
        `node-${i}`,
        r.full_name,
        owner ?? "",
        r.name,
        r.slug,
        // the warehouse may hold "" for missing text; publish turns it into null
        r.description ?? "",
        r.stars,
        r.forks,
        r.language,
        r.license,
        row.domain,
        r.subcategory,
        r.pypi_package,
        // and NULL downloads when no figure was read (a list that states none); publish keeps it null
        r.downloads_monthly,
        r.maintenance_score,
        r.adoption_score,
        r.maturity_score,
        r.community_score,
        r.quality_score,
        r.quality_tier,
      ],
    );
  }
}

/** An in-memory warehouse holding the fixture. */
export async function fixtureDb(rows: readonly FixtureRow[] = FIXTURE_ROWS, runDate?: string): Promise<Db> {
  const db = await openDb(":memory:");
  // the public tables the release's other collections and datasets read (pipeline/testdata/public-tables.sql)
  await createPublicTables(db);
  await runSqlFile(db, DETAIL_FIXTURE_SQL);
  await runSqlFile(db, ACTIVITY_FIXTURE_SQL);
  await runSqlFile(db, DIGEST_FIXTURE_SQL);
  await loadQualityRows(db, rows, runDate);
  return db;
}

/** The record of `key` among a sharded collection's rendered files (path → bytes), parsed; undefined if absent. */
export function shardedRecord(files: ReadonlyMap<string, Buffer>, collection: string, key: string): unknown {
  const shard = shardOf(key);
  const records = files.get(`collections/${collection}/${shard}.json`) as Buffer;
  const index = decodeCollectionIndex(files.get(`collections/${collection}/${shard}.idx`) as Buffer);
  const ordinal = index.keys?.get(key);
  return ordinal === undefined ? undefined : JSON.parse(recordBytes(records, index, ordinal).toString());
}

/** A collection rendered from the hand-made fixture on `runDate`, every record checked: its files, path → bytes. */
export async function renderFixtureCollection(
  spec: CollectionSpec,
  runDate: string,
): Promise<Map<string, Buffer>> {
  const db = await fixtureDb(FIXTURE_ROWS, runDate);
  try {
    await setRenderVariables(db, runDate);
    await setBadgeMarkdownVariable(db, configSchema.parse({}).publish.baseUrl);
    const files = new Map<string, Buffer>();
    await renderCollection(db, spec, async (f) => void files.set(f.path, f.body), { validate: "all" });
    return files;
  } finally {
    db.close();
  }
}
