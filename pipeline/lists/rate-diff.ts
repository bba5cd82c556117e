// A score diff (as OpenSSF Scorecard's scdiff): ratings now against a previous `projintel rate --json` output, the
// projects whose tier moves with their components before and after, and a summary of the moves, so a methodology
// change is judged on named projects before it ships.
import { z } from "zod";
import { AppError } from "../../core/errors.ts";
import { TIERS } from "./reality-check.ts";

/** The part of a `rate --json` line a diff reads; the other keys (classification, explanation) may be there. */
const ratedSchema = z.object({
  full_name: z.string(),
  quality_score: z.number(),
  quality_tier: z.string(),
  maintenance_score: z.number(),
  adoption_score: z.number(),
  maturity_score: z.number(),
  community_score: z.number(),
});
export type Rated = z.infer<typeof ratedSchema>;

/** Score, tier and components of a project on one side of the diff. */
export type Side = Omit<Rated, "full_name">;

export interface TierChange {
  full_name: string;
  before: Side;
  after: Side;
}

export interface ScoreDiff {
  /** Projects rated on both sides. */
  compared: number;
  tier_changed: number;
  score_changed: number;
  /** Median of (score now - score before) over the projects compared. */
  median_score_change: number;
  /** "from→to": projects, the tiers in their order (verified first). */
  moves: Record<string, number>;
  /** Rated now only, and before only. */
  added: string[];
  removed: string[];
  changes: TierChange[];
}

/** Reads a previous `rate --json` output: one rating a line; a line that is not one names itself. */
export function parseRatings(text: string, source: string): Rated[] {
  const rated: Rated[] = [];
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new AppError(`${source} line ${i + 1} is not JSON (${(error as Error).message}).`, {
        hint: "Pass the output of projintel rate FILE --json, one rating a line.",
      });
    }
    const parsed = ratedSchema.safeParse(value);
    if (!parsed.success) {
      const lacks = parsed.error.issues.map((x) => x.path.join(".")).join(", ");
      throw new AppError(`${source} line ${i + 1} is not a rating: it lacks or mistypes ${lacks}.`, {
        hint: "Pass the output of projintel rate FILE --json, one rating a line.",
      });
    }
    rated.push(parsed.data);
  });
  if (rated.length === 0) {
    throw new AppError(`${source} holds no ratings.`, {
      hint: "Pass the output of projintel rate FILE --json.",
    });
  }
  return rated;
}

/** Each project once, its first rating (a list may name a repository twice), by its case-insensitive name. */
function byName(rated: readonly Rated[]): Map<string, Rated> {
  const out = new Map<string, Rated>();
  for (const r of rated) if (!out.has(r.full_name.toLowerCase())) out.set(r.full_name.toLowerCase(), r);
  return out;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const rank = (tier: string) => {
  const i = (TIERS as readonly string[]).indexOf(tier);
  return i === -1 ? TIERS.length : i;
};

function side({ full_name: _, ...rest }: Rated): Side {
  return rest;
}

export function diffRatings(before: readonly Rated[], after: readonly Rated[]): ScoreDiff {
  const old = byName(before);
  const now = byName(after);
  const deltas: number[] = [];
  const changes: TierChange[] = [];
  for (const [key, a] of now) {
    const b = old.get(key);
    if (!b) continue;
    deltas.push(a.quality_score - b.quality_score);
    if (a.quality_tier !== b.quality_tier)
      changes.push({ full_name: a.full_name, before: side(b), after: side(a) });
  }
  changes.sort(
    (x, y) =>
      rank(x.before.quality_tier) - rank(y.before.quality_tier) ||
      rank(x.after.quality_tier) - rank(y.after.quality_tier) ||
      x.full_name.localeCompare(y.full_name),
  );
  const moves: Record<string, number> = {};
  for (const c of changes) {
    const move = `${c.before.quality_tier}→${c.after.quality_tier}`;
    moves[move] = (moves[move] ?? 0) + 1;
  }
  return {
    compared: deltas.length,
    tier_changed: changes.length,
    score_changed: deltas.filter((d) => d !== 0).length,
    median_score_change: median(deltas),
    moves,
    added: [...now].filter(([k]) => !old.has(k)).map(([, r]) => r.full_name),
    removed: [...old].filter(([k]) => !now.has(k)).map(([, r]) => r.full_name),
    changes,
  };
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** The diff as text: a row per tier move (score and the four components, before→after), then the summary lines. */
export function formatDiff(
  diff: ScoreDiff,
  previous: string,
): { header: string[]; rows: string[][]; summary: string[] } {
  const rows = diff.changes.map((c) => {
    const pair = (k: keyof Side) => `${c.before[k]}→${c.after[k]}`;
    return [
      c.full_name,
      pair("quality_tier"),
      pair("quality_score"),
      pair("maintenance_score"),
      pair("adoption_score"),
      pair("maturity_score"),
      pair("community_score"),
    ];
  });
  const summary = [
    `${diff.tier_changed} of ${diff.compared} projects change tier against ${previous}; ${diff.score_changed} change score, median change ${signed(diff.median_score_change)}`,
    ...Object.entries(diff.moves).map(([move, n]) => `  ${move}: ${n}`),
  ];
  if (diff.added.length > 0) summary.push(`rated now, not in ${previous}: ${diff.added.join(", ")}`);
  if (diff.removed.length > 0) summary.push(`in ${previous}, not rated now: ${diff.removed.join(", ")}`);
  return { header: ["full_name", "tier", "score", "mnt", "adp", "mat", "com"], rows, summary };
}
