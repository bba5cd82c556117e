// The two nodes(ids:) fetches: full details and the light refresh. Each node is parsed on its own, so one
// malformed repository is quarantined (with the GraphQL URL and its node id) instead of failing its batch.
// Each also names the ids GitHub answered NOT_FOUND for (gone.ts).
import { AppError } from "../../../core/errors.ts";
import type { CollectContext } from "../types.ts";
import type { GithubClient } from "./client.ts";
import { notFoundIds } from "./gone.ts";
import { DETAILS_QUERY, detailsWindows, LIGHT_QUERY } from "./queries.ts";
import {
  type DetailsResponse,
  detailsEnvelopeSchema,
  detailsNodeSchema,
  type GraphqlError,
  type LightRepository,
  lightRepositorySchema,
  repositorySchema,
} from "./schemas.ts";

type DetailsNode = NonNullable<DetailsResponse["data"]>["nodes"][number];

/** Fails the batch on errors that are not about single nodes (those only skip their node). */
function checkErrors(errors: readonly GraphqlError[] | undefined, hasData: boolean, ids: readonly string[]) {
  const unexplained = (errors ?? []).filter((e) => e.path?.[0] !== "nodes");
  if (!hasData || unexplained.length > 0) {
    throw new AppError(
      `GitHub details for ${ids.length} repositories failed: ${unexplained[0]?.message ?? "no data"}.`,
      { kind: "transient", hint: "Run again later; finished batches are kept." },
    );
  }
}

const isRepositoryLike = (node: unknown) => node !== null && typeof node === "object" && "id" in node;

export async function fetchDetails(
  ctx: CollectContext,
  client: GithubClient,
  ids: readonly string[],
): Promise<{ answer: DetailsResponse; quarantined: Set<string>; notFound: Set<string> }> {
  const quarantined = new Set<string>();
  const envelope = await client.query(
    DETAILS_QUERY,
    { ids, ...detailsWindows(ctx.runDate) },
    detailsEnvelopeSchema,
  );
  checkErrors(envelope.errors, Boolean(envelope.data), ids);
  const nodes: DetailsNode[] = [];
  for (const [index, node] of (envelope.data?.nodes ?? []).entries()) {
    // A node with an id is a repository: parse it as one, so the quarantine names the field at fault.
    const parsed = isRepositoryLike(node)
      ? repositorySchema.safeParse(node)
      : detailsNodeSchema.safeParse(node);
    if (parsed.success) nodes.push(parsed.data);
    else {
      await ctx.quarantine(`${ctx.urls.githubGraphql}#nodes:${ids[index]}`, node, parsed.error);
      quarantined.add(ids[index] ?? "");
      nodes.push(null);
    }
  }
  const answer: DetailsResponse = {
    ...envelope,
    data: envelope.data ? { ...envelope.data, nodes } : envelope.data,
  };
  return { answer, quarantined, notFound: notFoundIds(envelope.errors, ids) };
}

/** The light refresh of up to 100 repositories: only complete repository nodes come back. */
export async function fetchLight(
  ctx: CollectContext,
  client: GithubClient,
  ids: readonly string[],
): Promise<{ repos: LightRepository[]; quarantined: Set<string>; notFound: Set<string> }> {
  const quarantined = new Set<string>();
  const envelope = await client.query(LIGHT_QUERY, { ids }, detailsEnvelopeSchema);
  checkErrors(envelope.errors, Boolean(envelope.data), ids);
  const damaged = new Set(
    (envelope.errors ?? []).flatMap((e) =>
      e.path?.[0] === "nodes" && typeof e.path[1] === "number" ? [e.path[1]] : [],
    ),
  );
  const repos: LightRepository[] = [];
  for (const [index, node] of (envelope.data?.nodes ?? []).entries()) {
    if (!isRepositoryLike(node) || damaged.has(index)) continue;
    const parsed = lightRepositorySchema.safeParse(node);
    if (parsed.success) repos.push(parsed.data);
    else {
      await ctx.quarantine(`${ctx.urls.githubGraphql}#nodes:${ids[index]}`, node, parsed.error);
      quarantined.add(ids[index] ?? "");
    }
  }
  return { repos, quarantined, notFound: notFoundIds(envelope.errors, ids) };
}
