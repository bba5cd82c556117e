// The datasets artifact: the Parquet and Arrow snapshots of the release and their index (api/v1/datasets.json,
// served as GET /api/v1/datasets). DuckDB writes the Parquet files into a temp folder under the state folder first;
// the history nights the last pull left on the remote are taken from the previous release (dataset-carry.ts).
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { statePaths } from "../core/config.ts";
import { readHistoryLeft } from "../core/history-left.ts";
import type { ReleaseContext } from "./artifacts.ts";
import { type DatasetEntry, datasetIndex, renderDatasets } from "./datasets.ts";
import type { ReleaseFile } from "./release-writer.ts";
import { DATASETS_INDEX_FILE } from "./routes/datasets.ts";

export async function renderDatasetFiles(
  context: ReleaseContext,
  write: (file: ReleaseFile) => Promise<void>,
): Promise<void> {
  const tempRoot = path.join(context.stateRoot, "tmp");
  await mkdir(tempRoot, { recursive: true });
  const tempDir = await mkdtemp(path.join(tempRoot, "datasets-"));
  const entries: DatasetEntry[] = [];
  let carried = 0;
  try {
    for await (const { file, entry } of renderDatasets({
      db: context.db,
      historyDir: path.join(context.stateRoot, "history"),
      // kept between publishes: a closed month is packed once
      packedDir: statePaths({ stateDir: context.stateRoot }).packedHistory,
      baseUrl: context.baseUrl,
      tempDir,
      previous: context.previous,
      previousDatasets: context.previousDatasets,
      historyLeft: (await readHistoryLeft(context.stateRoot))?.nights,
    })) {
      await write(file);
      entries.push(entry);
      if (file.carried) carried++;
    }
  } finally {
    await rm(tempDir, { recursive: true, force: true });
  }
  if (carried > 0)
    context.logger.info("history files copied from the previous release (not in this folder)", {
      files: carried,
      previous: context.previousDatasets?.releaseId,
    });
  // the most starred project, for the how-to's query of one project's history
  const [top] = await context.db.all<{ full_name: string }>(
    "SELECT full_name FROM projects ORDER BY stars DESC NULLS LAST, full_name LIMIT 1",
  );
  const index = datasetIndex(entries, {
    runDate: context.runDate,
    releaseId: context.releaseId,
    exampleProject: top?.full_name,
  });
  await write({ path: DATASETS_INDEX_FILE, body: Buffer.from(JSON.stringify(index), "utf8") });
}
