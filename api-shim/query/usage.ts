// What the query pool remembers of each address: the worker time it used lately (a sum that halves every half-life,
// for the queue's order), when one of its queries last ran past the light slice (heavy: it uses the general workers
// only for a while), and when one last finished within it (proven light: first in line for the light workers).

export interface Usage {
  /**
   * Adds a query's `ms` of worker time to `group`, and what it showed: heavy (it ran past the light slice), light (it
   * answered within it), or nothing (it failed within it).
   */
  add(group: string, ms: number, shown?: "heavy" | "light"): void;
  /** `group`'s worker time, decayed to now. */
  of(group: string): number;
  /** One of `group`'s queries ran past the light slice within the heavy mark. */
  heavy(group: string): boolean;
  /** One of `group`'s queries finished within the light slice within the heavy mark, and none ran past it since. */
  provenLight(group: string): boolean;
}

interface Entry {
  ms: number;
  at: number;
  heavyAt?: number;
  lightAt?: number;
}

/** Below this, a group's decayed time is dropped (with its marks, once they are older than the heavy mark). */
const FORGOTTEN_MS = 1;

export function createUsage(
  options: { halfLifeMs: number; heavyMarkMs: number },
  now: () => number = Date.now,
): Usage {
  const groups = new Map<string, Entry>();
  const decayed = (entry: Entry, at: number) => entry.ms * 2 ** (-(at - entry.at) / options.halfLifeMs);
  const recent = (mark: number | undefined, at: number) =>
    mark !== undefined && at - mark < options.heavyMarkMs;
  return {
    add(group, ms, shown) {
      const at = now();
      const entry = groups.get(group);
      const next: Entry = { ...entry, ms: (entry ? decayed(entry, at) : 0) + ms, at };
      if (shown === "heavy") next.heavyAt = at;
      if (shown === "light") next.lightAt = at;
      groups.set(group, next);
      // a sweep on each addition keeps the map to the groups of the last few half-lives and heavy marks
      for (const [name, e] of groups) {
        if (decayed(e, at) < FORGOTTEN_MS && !recent(e.heavyAt, at) && !recent(e.lightAt, at))
          groups.delete(name);
      }
    },
    of(group) {
      const entry = groups.get(group);
      return entry ? decayed(entry, now()) : 0;
    },
    heavy(group) {
      return recent(groups.get(group)?.heavyAt, now());
    },
    provenLight(group) {
      const entry = groups.get(group);
      const at = now();
      return recent(entry?.lightAt, at) && !recent(entry?.heavyAt, at);
    },
  };
}
