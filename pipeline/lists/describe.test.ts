// describeHistory on the ten-night sample of best-of-ml-python's history and the list's 2025-06-26 export (real
// projects, test/fixtures/reality/): every row of the history copied in order, with its project's description where
// the export has the project; an export without descriptions, or a folder, is refused with what to pass instead.
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "../../core/db.ts";
import { describeHistory } from "./describe.ts";

const REALITY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test/fixtures/reality");
const SAMPLE = path.join(REALITY, "best-of-ml-python-history-sample.csv");
const EXPORT = path.join(REALITY, "best-of-ml-python-2025-06-26.csv");

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "describe-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("describeHistory", () => {
  it("copies the history row for row, each project described as the export describes it", async () => {
    const out = path.join(dir, "described");
    const described = await describeHistory({ history: SAMPLE, exportFile: EXPORT, outDir: out });
    // apache/incubator-mxnet is not among the export's projects (the other half of the list)
    expect(described).toEqual({ file: path.join(out, "history.csv"), described: 30, rows: 40 });
    const db = await openDb(":memory:");
    try {
      // the same rows in the same order (line numbers the replay reports stay the file's), and a column more
      const csv = (file: string) => `read_csv('${file}', all_varchar = true)`;
      const [same] = await db.all<{ n: number; differ: number }>(
        `SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE a IS DISTINCT FROM b)::INTEGER AS differ
         FROM (SELECT row_number() OVER () AS i, a FROM (SELECT * FROM ${csv(SAMPLE)}) a)
         JOIN (SELECT row_number() OVER () AS i, b FROM (SELECT * EXCLUDE (description) FROM ${csv(described.file)}) b)
         USING (i)`,
      );
      expect(same).toEqual({ n: 40, differ: 0 });
      const rows = await db.all<{ github_id: string; nights: number; description: string | null }>(
        `SELECT github_id, count(*)::INTEGER AS nights, any_value(description) AS description
         FROM read_csv('${described.file}', all_varchar = true) GROUP BY 1 ORDER BY 1`,
      );
      expect(rows).toEqual([
        {
          github_id: "BerriAI/litellm",
          nights: 10,
          description:
            "Python SDK, Proxy Server (LLM Gateway) to call 100+ LLM APIs in OpenAI format - [Bedrock, Azure, OpenAI, VertexAI,..",
        },
        { github_id: "apache/incubator-mxnet", nights: 10, description: null },
        {
          github_id: "gunthercox/ChatterBot",
          nights: 10,
          description:
            "ChatterBot is a machine learning, conversational dialog engine for creating chat bots.",
        },
        {
          github_id: "microsoft/nni",
          nights: 10,
          description:
            "An open source AutoML toolkit for automate machine learning lifecycle, including feature engineering, neural..",
        },
      ]);
    } finally {
      db.close();
    }
  });

  it("refuses an export without descriptions, and a folder of exports, saying what to pass", async () => {
    const figures = path.join(dir, "figures.csv");
    await writeFile(figures, "github_id,star_count\nBerriAI/litellm,24575\n");
    const out = path.join(dir, "refused");
    await expect(describeHistory({ history: SAMPLE, exportFile: figures, outDir: out })).rejects.toThrow(
      `--describe ${figures} has no description column.`,
    );
    const exports = path.join(dir, "history");
    await mkdir(exports);
    await copyFile(EXPORT, path.join(exports, "2025-06-26_projects.csv"));
    await expect(describeHistory({ history: exports, exportFile: EXPORT, outDir: out })).rejects.toThrow(
      `--describe ${EXPORT}: ${exports} is a folder of best-of exports, which describe their projects.`,
    );
  });
});
