// The publish gate: a release with no projects, or far fewer than the live one, is more likely a broken
// collection than a real change, so it is refused unless the operator forces it.
import type { Db } from "../core/db.ts";
import { AppError } from "../core/errors.ts";
import { DOMAINS } from "../schemas/index.ts";

export interface GateInput {
  projects: number;
  /** Project count of the live release, when there is one. */
  previous: { releaseId: string; projects: number } | undefined;
  /** Smallest share of the previous count a new release may have (config.publish.minShareOfPrevious). */
  minShareOfPrevious: number;
  force: boolean;
}

/** Throws when the release must not be published; returns a note when --force overrode the shrink check. */
export function checkGate(input: GateInput): string | undefined {
  if (input.projects === 0) {
    throw new AppError(
      "Refusing to publish: score_quality is empty, so the release would list no projects.",
      {
        hint: "Run the collection and scoring first (`projintel run`), then publish again.",
        stage: "publish:gate",
      },
    );
  }
  const { previous } = input;
  if (!previous) return undefined;
  const floor = Math.ceil(previous.projects * input.minShareOfPrevious);
  if (input.projects >= floor) return undefined;
  const what = `score_quality has ${input.projects} projects, fewer than ${floor} (${Math.round(input.minShareOfPrevious * 100)}% of the ${previous.projects} in the live release ${previous.releaseId})`;
  if (input.force) return `${what}; published anyway because of --force.`;
  throw new AppError(`Refusing to publish: ${what}.`, {
    hint: "Check the collection logs for failed sources; if the drop is real, publish again with --force.",
    stage: "publish:gate",
  });
}

/** Projects in score_quality; refuses rows whose domain is not one of the 30 (they could not be served). */
export async function countProjects(db: Db): Promise<number> {
  const rows = await db.all<{ domain: string | null; n: number }>(
    "SELECT domain, count(*)::INTEGER AS n FROM score_quality GROUP BY domain ORDER BY domain",
  );
  const known = new Set<string>(DOMAINS);
  const unknown = rows.filter((r) => r.domain === null || !known.has(r.domain));
  if (unknown.length > 0) {
    throw new AppError(
      `score_quality has ${unknown.reduce((n, r) => n + r.n, 0)} rows outside the 30 domains (${unknown.map((r) => String(r.domain)).join(", ")}).`,
      {
        hint: "Fix the classification (data/taxonomy.json, feat_classification.sql) and rerun the scores.",
        stage: "publish",
      },
    );
  }
  return rows.reduce((n, r) => n + r.n, 0);
}
