// Popular projects behave like popular projects: past a thousand stars dormancy becomes rare, and big active
// projects tag releases weekly to monthly, as on GitHub (hundreds of contributors keep a project moving).
import { DORMANT, FADING, RISING, STEADY } from "./kinds.ts";
import { between } from "./random.ts";

/**
 * A dormant or fading repository whose star scale is past KEEP_ACTIVE_FROM is re-drawn as steady with a chance
 * growing by KEEP_ACTIVE_PER_DECADE per decade past it, at most KEEP_ACTIVE_MAX: 30% at 3,000 stars, 60% at 10,000,
 * 90% from about 32,000. Steady, not rising: a steady curve reaches the same stars at the anchor as a dormant one,
 * so the star distribution stays as drawn (a rising one would still be far below its scale). Finished repositories
 * stay finished (a few big ones are done or archived on GitHub too).
 */
const KEEP_ACTIVE_FROM = 1_000;
const KEEP_ACTIVE_PER_DECADE = 0.6;
const KEEP_ACTIVE_MAX = 0.9;

/**
 * Past CADENCE_FROM stars a steady or rising repository tags releases (at least CADENCE_TAGGED of them do) and
 * cuts one every CADENCE_DAYS_MIN to CADENCE_DAYS_MAX days of full activity, at least one commit each.
 */
const CADENCE_FROM = 5_000;
const CADENCE_TAGGED = 0.9;
const CADENCE_DAYS_MIN = 7;
const CADENCE_DAYS_MAX = 30;

/**
 * The trajectory kind once popularity is known: `kind` itself unless a big dormant or fading repository is kept
 * active. `keep` is a unit draw of its own key, so no other draw of the repository shifts.
 */
export function popularKind(kind: number, popularity: number, keep: number): number {
  if ((kind !== DORMANT && kind !== FADING) || popularity <= KEEP_ACTIVE_FROM) return kind;
  const chance = Math.min(
    KEEP_ACTIVE_MAX,
    KEEP_ACTIVE_PER_DECADE * Math.log10(popularity / KEEP_ACTIVE_FROM),
  );
  return keep < chance ? STEADY : kind;
}

/** Whether the release cadence of a big active project applies. */
export function releasesRegularly(kind: number, popularity: number): boolean {
  return (kind === RISING || kind === STEADY) && popularity > CADENCE_FROM;
}

/** The chance to tag releases, raised to CADENCE_TAGGED for a big active project. */
export function taggedChance(chance: number, kind: number, popularity: number): number {
  return releasesRegularly(kind, popularity) ? Math.max(chance, CADENCE_TAGGED) : chance;
}

/** Commits per release, capped so a big active project releases every 7–30 days (`u` picks the interval). */
export function commitsPerRelease(
  commits: number,
  kind: number,
  popularity: number,
  rate: number,
  u: number,
): number {
  if (!releasesRegularly(kind, popularity)) return commits;
  return Math.min(commits, Math.max(1, rate * between(u, CADENCE_DAYS_MIN, CADENCE_DAYS_MAX)));
}
