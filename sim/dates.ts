// Time in the simulator: an instant is a (fractional) number of days since 1970-01-01T00:00:00Z,
// a day is its integer part. The sim clock's date D means the instant D 00:00:00Z (a nightly snapshot).

const MS_PER_DAY = 86_400_000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Day number of a YYYY-MM-DD string, or undefined when it is not a real calendar day. */
export function parseDay(text: string): number | undefined {
  if (!DAY_PATTERN.test(text)) return undefined;
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(ms)) return undefined;
  const day = Math.round(ms / MS_PER_DAY);
  return formatDay(day) === text ? day : undefined;
}

/** YYYY-MM-DD of a day number. */
export function formatDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** ISO 8601 timestamp of an instant, to the second, as GitHub writes them ("2019-11-09T06:58:44Z"). */
export function formatInstant(instant: number): string {
  const ms = Math.floor(instant * 86_400) * 1000;
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** PyPI's upload_time (no zone) and upload_time_iso_8601 (microseconds, Z) of an instant. */
export function formatPypiTimes(instant: number, micros: number): { plain: string; iso: string } {
  const plain = formatInstant(instant).slice(0, 19);
  return { plain, iso: `${plain}.${String(micros).padStart(6, "0")}Z` };
}

/** Instant of an ISO 8601 timestamp or date, or undefined when it does not parse. */
export function parseInstant(text: string): number | undefined {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms / MS_PER_DAY;
}

export const DAYS_PER_YEAR = 365.25;
