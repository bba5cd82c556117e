// Structured logs: one JSON object per line on stderr, so stdout stays free for command output.
// Tests pass a memory logger; the level comes from config.

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

export function createLogger(
  options: { level?: LogLevel; sink?: LogSink; fields?: LogFields; now?: () => Date } = {},
): Logger {
  const min = ORDER[options.level ?? "info"];
  const sink = options.sink ?? { write: (line: string) => process.stderr.write(line) };
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
