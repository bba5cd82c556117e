// GET /api/v1/transitions: lifecycle stage changes of tracked projects, newest first, over a look-back of days,
// filtered by domain and by the stage left or entered, paged. Rank is nights ago, so a look-back is a rank range.
import { transitionRecordSchema, transitionsParams } from "../../schemas/index.ts";
import { type CollectionRoute, type CollectionSpec, NIGHTLY_PRIVATE } from "../route-spec.ts";

export const TRANSITIONS_COLLECTION: CollectionSpec = {
  name: "transitions",
  sql: "transitions",
  record: transitionRecordSchema,
  filters: ["domain", "from_stage", "to_stage"],
  rank: { order: "asc" },
};

export const transitionsRoute: CollectionRoute = {
  name: "transitions",
  method: "GET",
  path: "/api/v1/transitions",
  kind: "list",
  summary: "Lifecycle stage changes, newest first",
  description:
    "Each change of a tracked project's lifecycle stage seen in the last `days` nights (1: the data's night only), newest first, then by stars and full_name. A project's first stage, on the night it was first tracked, is not a change and is not listed (its detail's lifecycle_since tells since when it is in its stage). domain, from_stage and to_stage narrow the list; to_stage=fading lists the projects that started to fade.",
  tag: "Trends",
  mcp: { name: "list_transitions" },
  query: transitionsParams,
  cache: NIGHTLY_PRIVATE,
  collection: TRANSITIONS_COLLECTION,
  filters: { domain: "domain", from_stage: "from_stage", to_stage: "to_stage" },
  range: (p) => ({ max: p.days - 1 }),
  paging: { limit: "limit", offset: "offset" },
  examples: { days: "30", limit: "20" },
};
