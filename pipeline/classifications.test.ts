// Classification is kept across nights: a night classifies only the repositories whose inputs changed, and every
// repository again when the taxonomy (the classifier) changes; what it keeps equals classifying from scratch.
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb, sqlLiteral } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { ensureRawTables, score, TAXONOMY_FILE } from "./score.ts";

const testdata = path.join(path.dirname(fileURLToPath(import.meta.url)), "testdata");
const RUN = "2026-11-20";

async function warehouse(): Promise<Db> {
  const db = await openDb(":memory:");
  await ensureRawTables(db);
  await db.run(
    `INSERT INTO raw_github_repos BY NAME SELECT * FROM read_json_auto(${sqlLiteral(path.join(testdata, "score-raw-github.ndjson"))})`,
  );
  return db;
}

const classified = async (db: Db) =>
  (await db.all<{ n: number }>("SELECT count(*) AS n FROM classify_input"))[0]?.n;
const kept = (db: Db) =>
  db.all("SELECT node_id, domain, subcategory, stack_layer, rule FROM classifications ORDER BY node_id");

describe("classifications kept across nights", () => {
  let db: Db;
  let dir: string;
  beforeAll(async () => {
    db = await warehouse();
    dir = await mkdtemp(path.join(os.tmpdir(), "pis-classify-"));
  });
  afterAll(async () => {
    db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("classifies every repository on the first night and none when nothing changed", async () => {
    await score({ db, runDate: RUN, logger: silentLogger });
    expect(await classified(db)).toBe(7);
    await score({ db, runDate: RUN, logger: silentLogger });
    expect(await classified(db)).toBe(0);
    expect(await kept(db)).toHaveLength(7);
  });

  it("reclassifies a repository whose description changed, and only it", async () => {
    expect(await db.all("SELECT domain FROM classifications WHERE node_id = 'R_E'")).toEqual([
      { domain: "vector-db" },
    ]);
    await db.run(
      "UPDATE raw_github_repos SET description = 'Text to speech with voice cloning' WHERE node_id = 'R_E' AND run_date = DATE '2026-11-20'",
    );
    await score({ db, runDate: RUN, logger: silentLogger });
    expect(await classified(db)).toBe(1);
    expect(await db.all("SELECT domain FROM classifications WHERE node_id = 'R_E'")).toEqual([
      { domain: "voice-ai" },
    ]);
  });

  it("reclassifies everything when the taxonomy changes, to what a fresh warehouse computes", async () => {
    const taxonomy = path.join(dir, "taxonomy.json");
    await copyFile(TAXONOMY_FILE, taxonomy);
    await writeFile(taxonomy, `${(await readFile(taxonomy, "utf8")).trimEnd()}\n\n`);
    await score({ db, runDate: RUN, logger: silentLogger, taxonomyFile: taxonomy });
    expect(await classified(db)).toBe(7);
    const fresh = await warehouse();
    try {
      await fresh.run(
        "UPDATE raw_github_repos SET description = 'Text to speech with voice cloning' WHERE node_id = 'R_E' AND run_date = DATE '2026-11-20'",
      );
      await score({ db: fresh, runDate: RUN, logger: silentLogger, taxonomyFile: taxonomy });
      expect(await kept(db)).toEqual(await kept(fresh));
    } finally {
      fresh.close();
    }
  });
});
