// The GraphQL Repository object: every field computed from the world at the request's sim instant,
// lazily, so a query pays only for the fields it selects.
import { formatInstant } from "../dates.ts";
import {
  commitInstant,
  commits,
  forks,
  isArchived,
  issueCounts,
  pullRequestCounts,
  releaseInstant,
  starInstant,
  stars,
  updatedInstant,
  watchers,
} from "../metrics.ts";
import { encodeLegacyId, encodeNodeId } from "../node-id.ts";
import { SALT, unit } from "../random.ts";
import { latestStableIndex, type ReleaseRecord, releasesAt } from "../releases.ts";
import { FLAG_FORK, FLAG_GH_RELEASES } from "../repo-params.ts";
import {
  defaultBranchOf,
  descriptionOf,
  homepageOf,
  languageOf,
  licenseOf,
  TOPIC_VOCABULARY,
  topicsOf,
} from "../repo-text.ts";
import { LANGUAGES, LICENSES } from "../vocabulary.ts";
import { listCursor, type PageArgs, slice } from "./paginate.ts";
import {
  CommitView,
  countConnection,
  ownerView,
  type RequestContext,
  releaseView,
  stargazerView,
} from "./views.ts";

type StateArgs = PageArgs & { states?: string[] | null };
type OrderArgs = PageArgs & { orderBy?: { field: string; direction: "ASC" | "DESC" } | null };

export class RepositoryView {
  readonly __typename = "Repository";
  readonly isDisabled = false;
  readonly isPrivate = false;
  private releaseCache?: ReleaseRecord[];
  private readonly releaseInstants = new Map<number, number>();
  private pushCache?: number;

  constructor(
    private readonly ctx: RequestContext,
    readonly index: number,
  ) {}

  private get world() {
    return this.ctx.world;
  }
  private get flags(): number {
    return this.world.params.flags[this.index] as number;
  }
  private releaseList(): ReleaseRecord[] {
    this.releaseCache ??=
      this.flags & FLAG_GH_RELEASES ? releasesAt(this.world, this.index, this.ctx.now) : [];
    return this.releaseCache;
  }
  private releaseAt(release: ReleaseRecord): number {
    let at = this.releaseInstants.get(release.k);
    if (at === undefined) {
      const near = 2 * release.k > this.releaseList().length ? "high" : "low";
      at = releaseInstant(this.world, this.index, release.k, this.ctx.now, near);
      this.releaseInstants.set(release.k, at);
    }
    return at;
  }
  private release(record: ReleaseRecord, latest: number) {
    return releaseView(this.world, this.index, record, this.releaseAt(record), latest);
  }
  /** Instant of the last push: the head commit plus a few minutes, memoised for pushedAt and updatedAt. */
  private lastPush(): number {
    if (this.pushCache === undefined) {
      const n = commits(this.world, this.index, this.ctx.now);
      const created = this.world.params.created[this.index] as number;
      const at = n === 0 ? created : commitInstant(this.world, this.index, n, this.ctx.now);
      const delay = n === 0 ? 0 : 0.01 * unit(this.world.seed, this.index, SALT.time, n);
      this.pushCache = Math.min(this.ctx.now, at + delay);
    }
    return this.pushCache;
  }

  get id(): string {
    return this.world.nodeId(this.index);
  }
  get databaseId(): number {
    return this.world.databaseId(this.index);
  }
  get name(): string {
    return this.world.repoNameAt(this.index, this.ctx.now);
  }
  get nameWithOwner(): string {
    return this.world.fullNameAt(this.index, this.ctx.now);
  }
  get url(): string {
    return `https://github.com/${this.nameWithOwner}`;
  }
  get owner() {
    return ownerView(this.world, this.world.ownerOf(this.index));
  }
  get description(): string | null {
    return descriptionOf(this.world, this.index);
  }
  get homepageUrl(): string | null {
    return homepageOf(this.world, this.index);
  }
  get createdAt(): string {
    return formatInstant(this.world.params.created[this.index] as number);
  }
  get pushedAt(): string {
    return formatInstant(this.lastPush());
  }
  get updatedAt(): string {
    return formatInstant(updatedInstant(this.world, this.index, this.ctx.now, this.lastPush()));
  }
  get isArchived(): boolean {
    return isArchived(this.world, this.index, this.ctx.now);
  }
  get isFork(): boolean {
    return (this.flags & FLAG_FORK) !== 0;
  }
  get stargazerCount(): number {
    return stars(this.world, this.index, this.ctx.now);
  }
  get forkCount(): number {
    return forks(this.world, this.index, this.ctx.now);
  }
  get primaryLanguage() {
    const name = languageOf(this.world, this.index);
    return name === null
      ? null
      : { __typename: "Language", id: encodeLegacyId("Language", 100 + LANGUAGES.indexOf(name)), name };
  }
  get licenseInfo() {
    const license = licenseOf(this.world, this.index);
    return license === null
      ? null
      : { __typename: "License", id: encodeLegacyId("License", 1 + LICENSES.indexOf(license)), ...license };
  }
  get defaultBranchRef() {
    const branch = defaultBranchOf(this.world, this.index);
    if (branch === null) return null;
    const head = commits(this.world, this.index, this.ctx.now);
    return {
      __typename: "Ref",
      id: encodeNodeId("REF", this.databaseId),
      name: branch,
      target: new CommitView(this.ctx, this.index, head),
    };
  }
  get latestRelease() {
    const list = this.releaseList();
    const latest = latestStableIndex(list);
    return latest === 0 ? null : this.release(list[latest - 1] as ReleaseRecord, latest);
  }

  issues(args: StateArgs) {
    const counts = issueCounts(this.world, this.index, this.ctx.now);
    const states = args.states ?? ["OPEN", "CLOSED"];
    return countConnection(
      (states.includes("OPEN") ? counts.open : 0) + (states.includes("CLOSED") ? counts.closed : 0),
      args,
    );
  }
  pullRequests(args: StateArgs) {
    const counts = pullRequestCounts(this.world, this.index, this.ctx.now);
    const states = args.states ?? ["OPEN", "CLOSED", "MERGED"];
    const pick = (state: "OPEN" | "CLOSED" | "MERGED", value: number) => (states.includes(state) ? value : 0);
    return countConnection(
      pick("OPEN", counts.open) + pick("CLOSED", counts.closed) + pick("MERGED", counts.merged),
      args,
    );
  }
  watchers(args: PageArgs) {
    return countConnection(watchers(this.world, this.index, this.ctx.now), args);
  }
  repositoryTopics(args: PageArgs) {
    const topics = topicsOf(this.world, this.index);
    const page = slice(topics.length, args, listCursor);
    const slot = this.databaseId * 16;
    return {
      totalCount: topics.length,
      pageInfo: page.pageInfo,
      nodes: page.positions.map((p) => {
        const topic = topics[p - 1] as number;
        return {
          __typename: "RepositoryTopic",
          id: encodeLegacyId("RepositoryTopic", slot + p),
          topic: {
            __typename: "Topic",
            id: encodeLegacyId("Topic", 1000 + topic),
            name: TOPIC_VOCABULARY[topic],
          },
        };
      }),
    };
  }
  releases(args: OrderArgs) {
    const list = this.releaseList();
    const latest = latestStableIndex(list);
    const byName = args.orderBy?.field === "NAME";
    const ordered = byName ? [...list].sort((a, b) => a.tagName.localeCompare(b.tagName)) : [...list];
    if (args.orderBy?.direction === "DESC") ordered.reverse();
    const page = slice(ordered.length, args, listCursor);
    return {
      totalCount: ordered.length,
      pageInfo: page.pageInfo,
      nodes: page.positions.map((p) => this.release(ordered[p - 1] as ReleaseRecord, latest)),
    };
  }
  stargazers(args: OrderArgs) {
    const total = this.stargazerCount;
    const ascending = args.orderBy?.direction !== "DESC";
    const page = slice(total, args, listCursor);
    return {
      totalCount: total,
      pageInfo: page.pageInfo,
      edges: page.positions.map((p) => {
        const k = ascending ? p : total - p + 1;
        return {
          cursor: listCursor.encode(p),
          node: stargazerView(this.world, this.index, k),
          starredAt: formatInstant(
            starInstant(this.world, this.index, k, this.ctx.now, 2 * k > total ? "high" : "low"),
          ),
        };
      }),
    };
  }
}
