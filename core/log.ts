// Structured logs: one JSON object per line on stderr (or a file, see fileSink), so stdout stays free for command
// output. Tests pass a memory logger; the level comes from config.
import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";

export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LogSink {
  write(line: string): void;
}

export const stderrSink: LogSink = { write: (line) => process.stderr.write(line) };

/**
 * Appends every line to `file` (its folder made first). Synchronous on purpose: a run that fails or is killed keeps
 * every line up to the failure, and a night writes a few hundred lines, not enough for buffering to matter.
 */
export function fileSink(file: string): LogSink {
  mkdirSync(path.dirname(file), { recursive: true });
  return { write: (line) => appendFileSync(file, line) };
}

/** One sink writing to several (the log file, and stderr with --verbose). */
export function teeSink(...sinks: LogSink[]): LogSink {
  return {
    write: (line) => {
      for (const sink of sinks) sink.write(line);
    },
  };
}

export function createLogger(
  options: { level?: LogLevel; sink?: LogSink; fields?: LogFields; now?: () => Date } = {},
): Logger {
  const min = ORDER[options.level ?? "info"];
  const sink = options.sink ?? stderrSink;
  const base = options.fields ?? {};
  const now = options.now ?? (() => new Date());
  const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (ORDER[level] < min) return;
    sink.write(`${JSON.stringify({ time: now().toISOString(), level, msg, ...base, ...fields })}\n`);
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    child: (fields) => createLogger({ ...options, fields: { ...base, ...fields } }),
  };
}

/** A logger that keeps lines in memory, for tests. */
export function memoryLogger(): Logger & { lines: LogFields[] } {
  const lines: LogFields[] = [];
  const logger = createLogger({ level: "debug", sink: { write: (line) => lines.push(JSON.parse(line)) } });
  return Object.assign(logger, { lines });
}

export const silentLogger: Logger = createLogger({ sink: { write: () => {} } });
