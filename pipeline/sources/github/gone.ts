// Repositories GitHub no longer has: one raw_github_gone row per node id that the nodes(ids:) refresh answered
// NOT_FOUND for (deleted, or made private: GitHub does not tell which), with the last name it was known by.
// pipeline/sql/feat_tracked.sql turns them into deleted_on; a later row of the same id brings it back.
import type { RawTable, Row, RowMeta } from "../types.ts";

export const GONE_TABLE = "raw_github_gone" as const satisfies RawTable;

/** Why a tracked repository is gone; GraphQL's error type for a node id it cannot resolve. */
export const GONE_NOT_FOUND = "not_found";

/** The gone batch beside a refresh batch: raw_github_repos.00003 → raw_github_gone.00003 (light ones too). */
export const goneBatchId = (refreshBatchId: string) =>
  `${GONE_TABLE}.${refreshBatchId.slice(refreshBatchId.indexOf(".") + 1)}`;

/** The ids GitHub answered NOT_FOUND for in a nodes(ids:) call: the error's path is ["nodes", position]. */
export function notFoundIds(
  errors: readonly { type?: string; path?: readonly (string | number)[] }[] | undefined,
  ids: readonly string[],
): Set<string> {
  const found = new Set<string>();
  for (const error of errors ?? []) {
    const position = error.path?.[1];
    const id = typeof position === "number" ? ids[position] : undefined;
    if (error.type === "NOT_FOUND" && error.path?.[0] === "nodes" && id !== undefined) found.add(id);
  }
  return found;
}

/** Pure: the gone rows of a batch, sorted by node id, each with its last known owner/name. */
export function goneRows(
  notFound: Iterable<string>,
  lastNames: ReadonlyMap<string, string>,
  meta: RowMeta,
): Row[] {
  return [...notFound].sort().map((nodeId) => ({
    run_date: meta.runDate,
    node_id: nodeId,
    full_name: lastNames.get(nodeId) ?? null,
    reason: GONE_NOT_FOUND,
    fetched_at: meta.fetchedAt.toISOString(),
  }));
}
