// The publish gate: a release with no projects, or far fewer than the live one, is more likely a broken
// collection than a real change, so it is refused unless the operator forces it.
import { AppError } from "../core/errors.ts";

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
