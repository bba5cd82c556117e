// The day a rate file's figures were read, which every age and recency counts to: --as-of when given (refused
// before a date the file holds, which would make ages negative), else the file's own date, else today with a warning.
import path from "node:path";
import { parseIsoDay } from "../../core/clock.ts";
import { ConfigError } from "../../core/errors.ts";
import {
  BEST_OF_COLUMNS,
  type FileDate,
  RATE_FIELDS,
  type RateInput,
  type RateRow,
  rateRowSchema,
} from "./rate-input.ts";

/** The date fields: they take a day and refuse other text. */
const DATE_FIELDS = RATE_FIELDS.filter(
  (f) =>
    rateRowSchema.shape[f].safeParse("2025-01-01").success && !rateRowSchema.shape[f].safeParse("x").success,
);

const BEST_OF_NAME = new Map<string, string>(Object.entries(BEST_OF_COLUMNS).map(([c, f]) => [f, c]));

/** The latest day any date field of the rows holds, named as the file names it (a best-of column, or the field). */
export function latestDate(input: Pick<RateInput, "rows" | "best_of_names">): FileDate | null {
  let latest: FileDate | null = null;
  for (const row of input.rows) {
    for (const field of DATE_FIELDS) {
      const value = row[field as keyof RateRow];
      if (typeof value !== "string") continue;
      const day = value.slice(0, 10);
      const named = (input.best_of_names && BEST_OF_NAME.get(field)) || field;
      if (!latest || day > latest.day) latest = { day, line: row.line, field: named };
    }
  }
  return latest;
}

export interface AsOf {
  day: string;
  /** Where the day came from, for stderr; null when --as-of gave it. */
  note: string | null;
}

const at = (d: FileDate) => `${d.field} ${d.day} on line ${d.line}`;

/**
 * The day to rate as of. Without a flag: the day in the file's name (best-of's `<date>_projects.csv`), else its
 * latest `updated_at`, else the latest date it holds (a lower bound: said as a warning), else today (a warning).
 */
export function resolveAsOf(
  input: RateInput,
  options: { flag?: string; file?: string; today: string },
): AsOf {
  const latest = latestDate(input);
  if (options.flag !== undefined) {
    if (!parseIsoDay(options.flag)) {
      throw new ConfigError(
        `--as-of ${options.flag} is not a date.`,
        "Give the day as YYYY-MM-DD, e.g. 2025-06-26.",
      );
    }
    if (latest && options.flag < latest.day) {
      throw new ConfigError(
        `--as-of ${options.flag} is before the file's own dates (${at(latest)}): ages would count backwards.`,
        `Give the day the figures were read, ${latest.day} or later, or leave --as-of out to take it from the file.`,
      );
    }
    return { day: options.flag, note: null };
  }
  const named = options.file ? /(\d{4}-\d{2}-\d{2})/.exec(path.basename(options.file))?.[1] : undefined;
  const stated =
    named && parseIsoDay(named)
      ? { day: named, from: `the date in its name (${path.basename(options.file as string)})` }
      : input.updated_at
        ? { day: input.updated_at.day, from: `its latest updated_at (line ${input.updated_at.line})` }
        : null;
  const change = "; pass --as-of YYYY-MM-DD to rate as of another day";
  if (stated && (!latest || stated.day >= latest.day)) {
    return { day: stated.day, note: `rating as of ${stated.day}, ${stated.from}${change}.` };
  }
  if (stated && latest) {
    return {
      day: latest.day,
      note: `warning: ${stated.from} says ${stated.day}, before ${at(latest)}: rating as of ${latest.day}${change}.`,
    };
  }
  if (latest) {
    return {
      day: latest.day,
      note: `warning: no reading date in the file: rating as of its latest date, ${at(latest)}; if the figures were read later, pass --as-of YYYY-MM-DD with that day.`,
    };
  }
  return {
    day: options.today,
    note: `warning: no date in the file: rating as of today, ${options.today}; pass --as-of YYYY-MM-DD with the day the figures were read.`,
  };
}
