// The sim clock: a date that only moves when told to (POST /_sim/advance), so runs are reproducible.
import { formatDay, parseDay } from "./dates.ts";

export interface SimClock {
  /** YYYY-MM-DD of the current sim date. */
  date(): string;
  /** The current instant: the sim date at 00:00:00Z, in days since the epoch. */
  now(): number;
  advance(days: number): string;
}

export function createClock(start: string): SimClock {
  let day = parseDay(start);
  if (day === undefined) throw new Error(`Sim date "${start}" is not a YYYY-MM-DD day.`);
  return {
    date: () => formatDay(day as number),
    now: () => day as number,
    advance: (days) => {
      day = (day as number) + days;
      return formatDay(day);
    },
  };
}
