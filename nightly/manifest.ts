// The run manifest (state/runs/<date>/manifest.json): what each stage of a night reported, so a run can be audited
// after the fact. Written by the nightly and by the sharded jobs (collect --shard, score --shards).
import path from "node:path";
import { type Config, statePaths } from "../core/config.ts";
import { writeJsonAtomic } from "../core/files.ts";
import type { CollectReport } from "../pipeline/collect.ts";
import type { HistoryReport } from "../pipeline/history.ts";
import type { PublicDbReport } from "../pipeline/public-db.ts";
import type { ScoreReport } from "../pipeline/score.ts";
import type { PullReport, PushReport } from "../pipeline/state/sync.ts";
import type { PublishReport } from "../publish/release.ts";

export interface RunManifest {
  run_date: string;
  started_at: string;
  finished_at: string;
  status: "ok" | "degraded" | "failed";
  error?: string;
  /** Wall time of each stage that ran, and of the whole run. */
  durations_ms?: {
    state_pull?: number;
    collect?: number;
    score?: number;
    history?: number;
    state_push?: number;
    public_db?: number;
    publish?: number;
    total: number;
  };
  collect?: CollectReport;
  score?: ScoreReport;
  history?: HistoryReport;
  /** The durable state restored from the remote before collecting (nightly --remote). */
  state_pull?: PullReport;
  /** The night's durable state written back to the remote after the history (nightly --remote). */
  state_push?: PushReport;
  /** The public tables copied to their own DuckDB file, for the SQL endpoint and `projintel sql`. */
  public_db?: PublicDbReport;
  publish?: PublishReport;
}

export function manifestPath(config: Config, runDate: string): string {
  return path.join(statePaths(config).runs, runDate, "manifest.json");
}

/** Writes the manifest to the run folder and, when asked, to one more file. */
export async function writeManifest(
  config: Config,
  manifest: RunManifest,
  reportFile?: string,
): Promise<string> {
  const file = manifestPath(config, manifest.run_date);
  await writeJsonAtomic(file, manifest);
  if (reportFile) await writeJsonAtomic(path.resolve(reportFile), manifest);
  return file;
}
