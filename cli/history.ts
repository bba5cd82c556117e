// `projintel history`: the durable record of every night (date-partitioned Parquet under <state>/history/):
// list the nights it holds and their size on disk, or rebuild a warehouse from it.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { statePaths } from "../core/config.ts";
import { createContext } from "./context.ts";
import { withStateDirFlag, withStateFlags } from "./options.ts";

/** Bytes of every file under a folder (0 when it does not exist). */
async function folderBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  let bytes = 0;
  for (const entry of entries) {
    const info = await stat(path.join(dir, entry));
    if (info.isFile()) bytes += info.size;
  }
  return bytes;
}

export function registerHistory(program: Command): void {
  const history = program
    .command("history")
    .description("The durable record: every night as date-partitioned Parquet under <state>/history/.");
  withStateDirFlag(history.command("list"))
    .description("List the nights the history holds, with their size on disk.")
    .option("--json", "print JSON")
    .action(async (flags) => {
      const { config } = createContext(flags);
      const { historyNights } = await import("../pipeline/history.ts");
      const root = statePaths(config).history;
      const nights = await historyNights(root);
      const bytes = await folderBytes(root);
      const summary = {
        root,
        nights: nights.length,
        first: nights[0] ?? null,
        last: nights.at(-1) ?? null,
        bytes,
        bytes_per_night: nights.length ? Math.round(bytes / nights.length) : 0,
      };
      if (flags.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      else
        process.stdout.write(
          `${summary.nights} nights (${summary.first ?? "-"} to ${summary.last ?? "-"}) in ${root}: ` +
            `${(bytes / 1_048_576).toFixed(1)} MiB, ${(summary.bytes_per_night / 1_048_576).toFixed(2)} MiB a night\n`,
        );
    });
  withStateFlags(history.command("rebuild"))
    .description(
      "Build a new warehouse from the history alone (every raw row, recent snapshots, transitions replayed).",
    )
    .requiredOption("--to <file>", "the new warehouse file (must not exist)")
    .addHelpText(
      "after",
      `
Then score the last night on it to get every derived table back:
  projintel history rebuild --to /tmp/rebuilt.duckdb
  mv /tmp/rebuilt.duckdb var/warehouse.duckdb && projintel score --date <last night>`,
    )
    .action(async (flags) => {
      const { config, logger } = createContext(flags);
      const { rebuildWarehouse } = await import("../pipeline/history.ts");
      const report = await rebuildWarehouse({
        root: statePaths(config).history,
        target: path.resolve(flags.to),
        logger,
      });
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    });
}
