// One error type for the whole service: it says what failed, what to do next, and whether retrying can help.
// Transient vs terminal is decided once, where the failure is first understood (mostly the HTTP layer).

export type ErrorKind = "transient" | "terminal";

export interface AppErrorOptions {
  /** What the user or operator should do next, in one sentence. */
  hint?: string;
  kind?: ErrorKind;
  /** The stage or component that failed, e.g. "collect:github". */
  stage?: string;
  cause?: unknown;
}

export class AppError extends Error {
  readonly hint: string | undefined;
  readonly kind: ErrorKind;
  readonly stage: string | undefined;

  constructor(message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.hint = options.hint;
    this.kind = options.kind ?? "terminal";
    this.stage = options.stage;
  }
}

/** A configuration value or CLI flag that cannot be used as given. */
export class ConfigError extends AppError {
  constructor(message: string, hint?: string) {
    super(message, { hint, kind: "terminal", stage: "config" });
    this.name = "ConfigError";
  }
}

export function isTransient(error: unknown): boolean {
  return error instanceof AppError && error.kind === "transient";
}

/** Wraps an error once with the stage it happened in, keeping the original as `cause`. */
export function inStage(stage: string, error: unknown): AppError {
  if (error instanceof AppError) {
    if (error.stage) return error;
    return new AppError(error.message, { hint: error.hint, kind: error.kind, stage, cause: error.cause });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AppError(`${stage} failed: ${message}`, { stage, cause: error });
}

export function describeError(error: unknown): string {
  if (error instanceof AppError) return error.hint ? `${error.message} ${error.hint}` : error.message;
  return error instanceof Error ? error.message : String(error);
}
