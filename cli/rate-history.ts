// `projintel rate FILE --history [--json | --transitions]`: replays a list's dated history night by night through
// the nightly's own SQL (pipeline/lists/replay.ts) and prints each project's stage, score, tier and star trend on
// each date, or the changes of stage; rows the file could not read go to stderr with their line.
import { formatTable } from "./classify.ts";

export interface RateHistoryFlags {
  json?: boolean;
  transitions?: boolean;
}

const say = (text: string) => process.stderr.write(`projintel rate --history: ${text}\n`);

/** Runs the replay of `file` and prints it; sets exit code 1 when rows were set aside. */
export async function rateHistory(file: string, flags: RateHistoryFlags): Promise<void> {
  const { replayList, replayRows, replayTransitions } = await import("../pipeline/lists/replay.ts");
  const replay = await replayList(file);
  try {
    const { history } = replay;
    for (const p of history.problems) say(`${p.file}${p.line === null ? "" : `:${p.line}`}: ${p.reason}`);
    if (flags.transitions) {
      const changes = await replayTransitions(replay.db);
      if (flags.json) for (const t of changes) process.stdout.write(`${JSON.stringify(t)}\n`);
      else
        process.stdout.write(
          formatTable(
            ["date", "full_name", "from", "to"],
            changes.map((t) => [t.date, t.full_name, t.from_stage ?? "-", t.to_stage]),
          ),
        );
    } else {
      const rows = await replayRows(replay.db);
      if (flags.json) for (const r of rows) process.stdout.write(`${JSON.stringify(r)}\n`);
      else {
        // the table gives each project's latest night; --json gives every night
        const latest = new Map(rows.map((r) => [r.full_name, r]));
        process.stdout.write(
          formatTable(
            ["full_name", "last date", "stage", "score", "tier", "stars", "7d", "30d", "momentum"],
            [...latest.values()].map((r) => [
              r.full_name,
              r.date,
              r.lifecycle_stage,
              String(r.quality_score),
              r.quality_tier,
              String(r.stars ?? "-"),
              String(r.stars_7d_delta ?? "-"),
              String(r.stars_30d_delta ?? "-"),
              String(r.momentum ?? "-"),
            ]),
          ),
        );
      }
    }
    say(
      `${history.projects} projects over ${history.dates.length} dates (${history.dates[0]} to ${history.dates.at(-1)}), ${history.rows} rows, replayed in ${(replay.ms / 1000).toFixed(1)} s`,
    );
    if (history.problems.length > 0) {
      say(`${history.problems.length} problem(s) above: those rows were set aside. Fix them and run again.`);
      process.exitCode = 1;
    }
  } finally {
    replay.db.close();
  }
}
