// Public API of the simulator: the server, the world and the pieces tests and benchmarks reach for.
export { createClock, type SimClock } from "./clock.ts";
export { formatDay, parseDay } from "./dates.ts";
export { recentDownloads } from "./downloads.ts";
export { FAULT_KINDS, type FaultKind, type FaultOptions } from "./faults.ts";
export { analyzeQuery, type QueryCost } from "./github/cost.ts";
export { listCursor, searchCursor } from "./github/paginate.ts";
export { createRateLimiter, GRAPHQL_POINTS_PER_HOUR, type RateLimiter } from "./github/rate-limit.ts";
export { githubSchema } from "./github/schema.ts";
export { SEARCH_RESULT_CAP, searchRepositories } from "./github/search.ts";
export { type Links, linksOf } from "./links.ts";
export * as metrics from "./metrics.ts";
export { normalisePypiName } from "./names.ts";
export { TRAJECTORIES, type Trajectory } from "./repo-params.ts";
export { type SimServer, type SimServerOptions, startSimServer } from "./server.ts";
export { type RepoSnapshot, snapshotRepo } from "./snapshot.ts";
export { SOURCES, type Source } from "./sources.ts";
export { createWorld, type World, type WorldOptions } from "./world.ts";
