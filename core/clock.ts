// Time comes in through this interface so tests can freeze it and the pipeline can follow the simulator's clock.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(at: Date | string): Clock {
  const date = typeof at === "string" ? new Date(at) : at;
  return { now: () => new Date(date.getTime()) };
}

/** YYYY-MM-DD of a date in UTC. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The next midnight UTC after `date`: when daily quotas reset. */
export function nextUtcMidnight(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1));
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Parses YYYY-MM-DD strictly (no rollover of 2026-02-31), or returns undefined. */
export function parseIsoDay(text: string): Date | undefined {
  if (!DAY_PATTERN.test(text)) return undefined;
  const date = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || isoDay(date) !== text ? undefined : date;
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}
