// Every constant of the scoring methodology, named once. The .sql files read them as DuckDB variables
// (getvariable('name')), and the methodology document is generated from this same list, so the published
// explanation can never drift from the computation.

import { ALTERNATIVE_CONSTANTS } from "./methodology/alternatives.ts";
import { DATASET_CONSTANTS } from "./methodology/datasets.ts";
import { SCORE_CONSTANTS } from "./methodology/score.ts";
import { SIGNAL_CONSTANTS } from "./methodology/signals.ts";

/** The part of the methodology a constant belongs to: a score component, the tiers, or a signal. */
export type Component =
  | "maintenance"
  | "adoption"
  | "maturity"
  | "community"
  | "tier"
  | "freshness"
  | "trend"
  | "momentum"
  | "hype"
  | "lifecycle"
  | "datasets";

export interface Constant {
  name: string;
  value: number;
  component: Component;
  /** What the constant means, for the methodology document. */
  doc: string;
}

/** Every constant, in the order the methodology document lists them. */
export const CONSTANTS: readonly Constant[] = [
  ...SCORE_CONSTANTS,
  ...SIGNAL_CONSTANTS,
  ...DATASET_CONSTANTS,
  ...ALTERNATIVE_CONSTANTS,
];

/** `SET VARIABLE` statements that hand the constants to the SQL files. */
export function constantsSql(constants: readonly Constant[] = CONSTANTS): string {
  return constants.map((c) => `SET VARIABLE ${c.name} = ${c.value};`).join("\n");
}
