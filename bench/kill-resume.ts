// Kill and resume (`npm run bench -- kill`): nothing fetched is lost when a collect dies mid-run. One state
// folder runs `projintel collect` for a run date and is SIGKILLed once 20%, 50% and 80% of the batch files
// an uninterrupted collect writes exist, each time restarted with the same command; the last restart runs
// to completion. At each kill the finished batch files (name, inode, mtime) are noted: a file rewritten
// later (new inode or mtime, the batch store writes by rename) was fetched again. The last run's report must
// list the files of the last kill as resumed. Against an uninterrupted collect of the same world and date
// in another state folder: per raw table the row count and a checksum of every column but fetched_at.
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  batchFiles,
  exited,
  freshTokens,
  readCollectReport,
  runCli,
  spawnCli,
  strayTempFiles,
} from "./children.ts";
import { startSim } from "./pipeline.ts";
import { openWarehouseReadOnly, rawTables, rowHashes, tableChecksum } from "./warehouse-facts.ts";

const RUN_DATE = "2026-11-20";
export const KILL_AT = [0.2, 0.5, 0.8] as const;
const POLL_MS = 20;

type Snapshot = Map<string, string>;

/** Each finished batch file with its identity: a rewrite by rename changes the inode. */
async function snapshot(state: string): Promise<Snapshot> {
  const root = path.join(state, "runs", RUN_DATE, "batches");
  const files = await batchFiles(state, RUN_DATE);
  const entries = await Promise.all(
    files.map(async (f) => {
      const s = await stat(path.join(root, f)).catch(() => undefined);
      return [f, s ? `${s.ino}:${s.mtimeMs}` : "gone"] as const;
    }),
  );
  return new Map(entries);
}

interface TableFacts {
  rows: number;
  checksum: string;
  hashes: Map<string, string>;
}

async function tableFacts(state: string): Promise<Map<string, TableFacts>> {
  const db = await openWarehouseReadOnly(state);
  try {
    const out = new Map<string, TableFacts>();
    for (const table of await rawTables(db))
      out.set(table, {
        ...(await tableChecksum(db, table, RUN_DATE)),
        hashes: await rowHashes(db, table, RUN_DATE),
      });
    return out;
  } finally {
    db.close();
  }
}

/** Per raw table: equal as a whole, and per entity what the uninterrupted run has that the resumed lacks. */
function compareTables(expected: Map<string, TableFacts>, got: Map<string, TableFacts>) {
  const empty: TableFacts = { rows: 0, checksum: "0", hashes: new Map() };
  const names = [...new Set([...expected.keys(), ...got.keys()])].sort();
  return Object.fromEntries(
    names.map((t) => {
      const a = expected.get(t) ?? empty;
      const b = got.get(t) ?? empty;
      const lost = [...a.hashes.keys()].filter((k) => !b.hashes.has(k)).length;
      const changed = [...a.hashes].filter(([k, h]) => b.hashes.has(k) && b.hashes.get(k) !== h).length;
      const extra = [...b.hashes.keys()].filter((k) => !a.hashes.has(k)).length;
      return [
        t,
        {
          clean_rows: a.rows,
          resumed_rows: b.rows,
          equal: a.rows === b.rows && a.checksum === b.checksum,
          lost,
          changed,
          extra,
        },
      ];
    }),
  );
}

const collectArgs = (sim: string, state: string, report?: string) =>
  ["collect", "--sim", sim, "--state-dir", state, "--date", RUN_DATE, "--log-level", "warn"].concat(
    report ? ["--report-json", report] : [],
  );

export async function benchKillResume(repos: number) {
  const work = await mkdtemp(path.join(os.tmpdir(), "projintel-kill-"));
  const cleanState = path.join(work, "clean");
  const killedState = path.join(work, "killed");
  const sim = await startSim(repos, RUN_DATE);
  try {
    const cleanReportFile = path.join(work, "clean.json");
    const clean = await runCli(
      collectArgs(sim.url, cleanState, cleanReportFile),
      path.join(work, "clean.log"),
      freshTokens("clean"),
    );
    if (clean.exit_code !== 0) throw new Error(`the uninterrupted collect exited ${clean.exit_code}`);
    const total = (await batchFiles(cleanState, RUN_DATE)).length;

    const kills = [];
    const snapshots: Snapshot[] = [];
    for (const share of KILL_AT) {
      const child = spawnCli(
        collectArgs(sim.url, killedState),
        path.join(work, "killed.log"),
        freshTokens("kill"),
      );
      const exit = exited(child);
      let done = false;
      exit.then(() => {
        done = true;
      });
      const started = performance.now();
      while (!done && (await batchFiles(killedState, RUN_DATE)).length < share * total)
        await new Promise((r) => setTimeout(r, POLL_MS));
      child.kill("SIGKILL");
      await exit;
      const files = await snapshot(killedState);
      snapshots.push(files);
      kills.push({
        at_share: share,
        after_ms: Math.round(performance.now() - started),
        batches_before_kill: files.size,
        finished_before_kill: child.signalCode !== "SIGKILL",
        temp_files_left: await strayTempFiles(killedState, RUN_DATE),
      });
    }

    const resumedReportFile = path.join(work, "resumed.json");
    const resumed = await runCli(
      collectArgs(sim.url, killedState, resumedReportFile),
      path.join(work, "killed.log"),
      freshTokens("resume"),
    );
    if (resumed.exit_code !== 0) throw new Error(`the resumed collect exited ${resumed.exit_code}`);
    const report = await readCollectReport(resumedReportFile);
    const cleanReport = await readCollectReport(cleanReportFile);
    const final = await snapshot(killedState);

    // A file of a kill's snapshot whose identity changed later was written again: fetched twice.
    for (const [k, kill] of kills.entries()) {
      const before = snapshots[k] as Snapshot;
      const later = [...snapshots.slice(k + 1), final];
      const refetched = [...before].filter(([f, id]) => later.some((s) => s.get(f) !== id));
      Object.assign(kill, {
        refetched: refetched.length,
        refetched_examples: refetched.slice(0, 5).map(([f]) => f),
      });
    }
    const last = snapshots.at(-1) as Snapshot;
    const resumedCount = report.sources.reduce((n, s) => n + s.batches_resumed, 0);
    const fetchedCount = report.sources.reduce((n, s) => n + s.batches_fetched, 0);

    const tables = compareTables(await tableFacts(cleanState), await tableFacts(killedState));
    const rowsLost = Object.values(tables).reduce((n, t) => n + t.lost, 0);
    return {
      repos,
      run_date: RUN_DATE,
      batch_files_uninterrupted: total,
      kills,
      final_run: {
        wall_ms: resumed.wall_ms,
        batches_before_last_kill: last.size,
        batches_resumed: resumedCount,
        batches_fetched: fetchedCount,
        resumed_equals_files_at_last_kill: resumedCount === last.size,
        temp_files_left: await strayTempFiles(killedState, RUN_DATE),
        per_source: Object.fromEntries(
          report.sources.map((s) => [
            s.source,
            {
              status: s.status,
              resumed: s.batches_resumed,
              fetched: s.batches_fetched,
              deferred: s.batches_deferred,
            },
          ]),
        ),
      },
      uninterrupted: {
        wall_ms: clean.wall_ms,
        batches_fetched: cleanReport.sources.reduce((n, s) => n + s.batches_fetched, 0),
      },
      refetched_total: kills.reduce((n, k) => n + ((k as { refetched?: number }).refetched ?? 0), 0),
      rows_lost: rowsLost,
      rows_changed: Object.values(tables).reduce((n, t) => n + t.changed, 0),
      rows_extra: Object.values(tables).reduce((n, t) => n + t.extra, 0),
      tables_equal: Object.values(tables).every((t) => t.equal),
      tables,
    };
  } finally {
    sim.child.kill("SIGTERM");
    await rm(work, { recursive: true, force: true });
  }
}
