// Small GraphQL objects around the world: commits, releases, users and owners. Fields are plain values or
// methods, which graphql-js's default resolver reads or calls with (args, context).
import { formatInstant } from "../dates.ts";
import { commitInstant, commits } from "../metrics.ts";
import { stargazerLogin } from "../names.ts";
import { encodeCommitId, encodeNestedId, encodeNodeId } from "../node-id.ts";
import { hash32, SALT, unit } from "../random.ts";
import type { ReleaseRecord } from "../releases.ts";
import { commitOid } from "../repo-text.ts";
import type { World } from "../world.ts";
import { listCursor, type PageArgs, slice, TypedGraphQLError } from "./paginate.ts";

export interface RequestContext {
  world: World;
  /** The sim clock's instant (the sim date at 00:00Z). */
  now: number;
  rate: { cost: number; limit: number; nodeCount: number; remaining: number; resetAt: string; used: number };
}

export function userView(login: string, databaseId: number) {
  return { __typename: "User", id: encodeNodeId("U", databaseId), login };
}

export function ownerView(world: World, owner: number) {
  const org = world.isOrganization(owner);
  return {
    __typename: org ? "Organization" : "User",
    id: encodeNodeId(org ? "O" : "U", 5_000_000 + owner),
    login: world.ownerLogin(owner),
  };
}

export function stargazerView(world: World, i: number, k: number) {
  return userView(
    stargazerLogin(world.seed, i, k),
    20_000_000 + (hash32(world.seed, i, k, SALT.stargazer) % 2_000_000_000),
  );
}

function parseTimestamp(value: unknown, argument: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === "string" ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new TypedGraphQLError(
      "INVALID_ARGUMENT",
      `Argument '${argument}' on Field 'history' has an invalid value (${JSON.stringify(value)}). Expected type 'GitTimestamp'.`,
    );
  }
  return ms / 86_400_000;
}

/** The n-th commit of repository i on its default branch. */
export class CommitView {
  readonly __typename = "Commit";
  constructor(
    private readonly ctx: RequestContext,
    private readonly index: number,
    private readonly n: number,
  ) {}
  get oid(): string {
    return commitOid(this.ctx.world, this.index, this.n);
  }
  get id(): string {
    return encodeCommitId(this.ctx.world.databaseId(this.index), this.oid);
  }
  get committedDate(): string {
    return formatInstant(commitInstant(this.ctx.world, this.index, this.n, this.ctx.now));
  }
  history(args: PageArgs & { since?: string; until?: string }) {
    const { world, now } = this.ctx;
    const since = parseTimestamp(args.since, "since");
    const until = parseTimestamp(args.until, "until");
    const high = Math.min(
      this.n,
      until === undefined ? this.n : commits(world, this.index, Math.min(until, now)),
    );
    const low = since === undefined ? 0 : Math.min(high, commits(world, this.index, Math.min(since, now)));
    const total = high - low;
    const page = slice(total, args, listCursor);
    return {
      totalCount: total,
      pageInfo: page.pageInfo,
      nodes: page.positions.map((p) => new CommitView(this.ctx, this.index, high - p + 1)),
    };
  }
}

export function releaseView(world: World, i: number, release: ReleaseRecord, at: number, latestK: number) {
  const databaseId = world.databaseId(i);
  return {
    __typename: "Release",
    id: encodeNestedId("RE", databaseId, 30_000_000 + i * 1024 + release.k),
    tagName: release.tagName,
    name: release.name,
    isDraft: false,
    isPrerelease: release.isPrerelease,
    isLatest: release.k === latestK,
    publishedAt: formatInstant(at),
    createdAt: formatInstant(at - 0.08 * unit(world.seed, i, SALT.time, release.k)),
  };
}

/** Wraps a plain count as a connection (issues, pull requests, watchers): totalCount plus pageInfo. */
export function countConnection(total: number, args: PageArgs) {
  return { totalCount: total, pageInfo: slice(total, args, listCursor).pageInfo };
}
