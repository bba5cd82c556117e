// Counters behind GET /_sim/stats: requests and injected faults per source, GraphQL points and REST
// requests charged (core, search).
import type { FaultKind } from "./faults.ts";
import { SOURCES, type Source, type SourceStats } from "./sources.ts";

export function createSimStats() {
  const requests = Object.fromEntries(SOURCES.map((s) => [s, 0])) as Record<Source, number>;
  const faults = {} as Partial<Record<Source, Partial<Record<FaultKind, number>>>>;
  const points: SourceStats = { graphql_points: 0, rest: { core: 0, search: 0 } };
  return {
    points,
    request: (source: Source) => {
      requests[source] += 1;
    },
    fault: (source: Source, kind: FaultKind) => {
      const counts = faults[source] ?? {};
      counts[kind] = (counts[kind] ?? 0) + 1;
      faults[source] = counts;
    },
    view: () => ({ requests, faults, graphql_points: points.graphql_points, rest: points.rest }),
  };
}
