// What every command needs: the parsed config (env + flags), a logger, the run date, the warehouse.
// The only place besides cli/main.ts that turns user input into config; errors here are ConfigErrors.
import { mkdir } from "node:fs/promises";
import { isoDay, parseIsoDay } from "../core/clock.ts";
import { type Config, type ConfigInput, loadConfig, statePaths } from "../core/config.ts";
import type { Db } from "../core/db.ts";
import { ConfigError } from "../core/errors.ts";
import { createLogger, type Logger, type LogSink } from "../core/log.ts";

export interface CommonFlags {
  stateDir?: string;
  sim?: string;
  logLevel?: string;
}

export interface CommandContext {
  config: Config;
  logger: Logger;
}

/** Builds the config from the environment plus the command's flags, flags winning; logs go to `sink` (stderr). */
export function createContext(
  flags: CommonFlags,
  overrides: Record<string, unknown> = {},
  sink?: LogSink,
): CommandContext {
  const config = loadConfig({
    env: process.env,
    overrides: {
      ...(flags.stateDir ? { stateDir: flags.stateDir } : {}),
      ...(flags.sim ? { simUrl: flags.sim } : {}),
      ...(flags.logLevel ? { logLevel: flags.logLevel } : {}),
      ...overrides,
    } as ConfigInput,
  });
  return { config, logger: createLogger({ level: config.logLevel, ...(sink ? { sink } : {}) }) };
}

/** Parses a whole-number flag within bounds, or throws a ConfigError naming the flag. */
export function intFlag(
  name: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`--${name} must be a whole number from ${min} to ${max}, got "${value}".`);
  }
  return Number(value);
}

export function dayFlag(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!parseIsoDay(value)) throw new ConfigError(`--${name} must be a date as YYYY-MM-DD, got "${value}".`);
  return value;
}

/**
 * The day a run is for: --date when given; else the simulator's clock when one is configured (so replayed
 * days line up with the simulated world); else today in UTC.
 */
export async function resolveRunDate(config: Config, date: string | undefined): Promise<string> {
  if (date) return date;
  if (!config.simUrl) return isoDay(new Date());
  const { simClock } = await import("../pipeline/sim-clock.ts");
  return simClock(config);
}

/**
 * Opens the warehouse under the state folder, creating the folder first. A warehouse restored for collection alone
 * (`state pull --raw-only`) is refused unless `rawOnly` allows it (pipeline/state/warehouse-scope.ts).
 */
export async function openWarehouse(config: Config, options: { rawOnly?: "allowed" } = {}): Promise<Db> {
  // DuckDB's native module loads here, for the commands that open the warehouse: every process imports this file,
  // and `--help`, `state push` or `report` start a third of a second of CPU sooner without it
  const [{ openDb }, { assertWholeWarehouse }] = await Promise.all([
    import("../core/db.ts"),
    import("../pipeline/state/warehouse-scope.ts"),
  ]);
  const paths = statePaths(config);
  await mkdir(paths.root, { recursive: true });
  // Row order within a table carries no meaning here; not preserving it lets loads and scans stream.
  const db = await openDb(paths.warehouse, {
    settings: { memory_limit: config.warehouseMemoryLimit, preserve_insertion_order: "false" },
  });
  if (options.rawOnly === "allowed") return db;
  try {
    await assertWholeWarehouse(db, paths.warehouse);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
