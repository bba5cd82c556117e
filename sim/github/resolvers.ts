// Root fields of the GraphQL schema: node, nodes, repository, search, rateLimit, viewer. Missing
// objects answer as GitHub does: null plus an error of type NOT_FOUND with GitHub's message.
import { exists } from "../metrics.ts";
import { type PageArgs, searchCursor, slice, TypedGraphQLError } from "./paginate.ts";
import { RepositoryView } from "./repository-view.ts";
import { countIssues, SEARCH_RESULT_CAP, searchRepositories } from "./search.ts";
import { type RequestContext, userView } from "./views.ts";

/** Created and not deleted at the request's instant. */
function isLive(ctx: RequestContext, index: number): boolean {
  return exists(ctx.world, index, ctx.now) && ctx.now < ctx.world.deleteDay(index);
}

function findNode(ctx: RequestContext, id: string): RepositoryView | TypedGraphQLError {
  const index = ctx.world.findNodeId(id);
  if (index === undefined || !isLive(ctx, index)) {
    return new TypedGraphQLError("NOT_FOUND", `Could not resolve to a node with the global id of '${id}'`);
  }
  return new RepositoryView(ctx, index);
}

function search(ctx: RequestContext, args: PageArgs & { query: string; type: string }) {
  const empty = {
    codeCount: 0,
    discussionCount: 0,
    issueCount: 0,
    repositoryCount: 0,
    userCount: 0,
    wikiCount: 0,
  };
  if (args.type !== "REPOSITORY") {
    const issueCount = args.type === "ISSUE" ? countIssues(ctx.world, args.query, ctx.now) : 0;
    return { ...empty, issueCount, edges: [], nodes: [], pageInfo: slice(0, args, searchCursor).pageInfo };
  }
  const result = searchRepositories(ctx.world, args.query, ctx.now);
  const page = slice(Math.min(result.total, SEARCH_RESULT_CAP), args, searchCursor);
  const nodes = page.positions.map((p) => new RepositoryView(ctx, result.indices[p - 1] as number));
  return {
    ...empty,
    repositoryCount: result.total,
    nodes,
    edges: nodes.map((node, n) => ({ cursor: searchCursor.encode(page.positions[n] as number), node })),
    pageInfo: page.pageInfo,
  };
}

/** The root value for one request. */
export function rootValue(ctx: RequestContext, viewerLogin: string, viewerId: number) {
  return {
    node: (args: { id: string }) => {
      const found = findNode(ctx, args.id);
      if (found instanceof TypedGraphQLError) throw found;
      return found;
    },
    nodes: (args: { ids: string[] }) => args.ids.map((id) => findNode(ctx, id)),
    repository: (args: { owner: string; name: string }) => {
      // A former name follows the rename (GitHub redirects it); a deleted repository is gone.
      const index = ctx.world.resolveRepo(args.owner, args.name, ctx.now)?.index;
      if (index === undefined || !isLive(ctx, index)) {
        throw new TypedGraphQLError(
          "NOT_FOUND",
          `Could not resolve to a Repository with the name '${args.owner}/${args.name}'.`,
        );
      }
      return new RepositoryView(ctx, index);
    },
    search: (args: PageArgs & { query: string; type: string }) => search(ctx, args),
    rateLimit: () => ctx.rate,
    viewer: () => userView(viewerLogin, viewerId),
  };
}
