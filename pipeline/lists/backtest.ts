// The backtest of a replayed list (pipeline/sql/lists/backtest.sql): at each quarter from 2021 to 2024, the stage
// each project had against what happened next, each figure beside a naive rule computed from the same rows.
import path from "node:path";
import { type Db, runSqlFile } from "../../core/db.ts";
import { BACKTEST_TARGETS, type BacktestFigure, type BacktestFigureName } from "./backtest-result.ts";
import { LISTS_SQL } from "./history-input.ts";

export type { BacktestFigure, BacktestFigureName } from "./backtest-result.ts";

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Runs backtest.sql over a replayed list (replayList's database) and reads its figures. */
export async function backtest(db: Db): Promise<BacktestFigure[]> {
  await runSqlFile(db, path.join(LISTS_SQL, "backtest.sql"));
  const rows = await db.all<{
    figure: BacktestFigureName;
    n: number;
    hits: number;
    naive_n: number;
    naive_hits: number;
  }>(
    "SELECT figure, n::INTEGER AS n, hits::INTEGER AS hits, naive_n::INTEGER AS naive_n, naive_hits::INTEGER AS naive_hits FROM backtest_figures",
  );
  return rows.map((r) => {
    const scale = r.figure === "changes_per_project_year" ? 365.25 : 1;
    const value = r.n > 0 ? round((scale * r.hits) / r.n) : null;
    const naive = r.naive_n > 0 ? round((scale * r.naive_hits) / r.naive_n) : null;
    const target: { at_least?: number; at_most?: number } = BACKTEST_TARGETS[r.figure];
    const meets =
      value === null
        ? null
        : target.at_least !== undefined
          ? value >= target.at_least
          : value <= (target.at_most ?? 0);
    return { ...r, value, naive_value: naive, meets_target: meets };
  });
}
