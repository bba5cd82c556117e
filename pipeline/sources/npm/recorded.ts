// The `recorded` hook of npm (see ../recorded.ts): parses a recorded packument or downloads answer of a
// given endpoint kind with the connector's schemas.
import { type RecordedResponse, type RecordedVerdict, UnknownKindError } from "../recorded.ts";
import { githubRepoOfNpm } from "./repository.ts";
import { packumentSchema, pointSchema, rangeSchema } from "./schemas.ts";

export function parseNpmRecorded(response: RecordedResponse): RecordedVerdict {
  const { kind, status, body } = response;
  if (status !== 200) return { detail: `status ${status}` };
  switch (kind) {
    case "packument-full": {
      const p = packumentSchema.parse(body);
      const repo = githubRepoOfNpm(p.repository) ?? "no GitHub repository";
      return {
        detail: `${p.name} ${p["dist-tags"]?.latest}, ${Object.keys(p.versions ?? {}).length} versions, ${repo}`,
      };
    }
    case "downloads-point-last-month": {
      const point = pointSchema.parse(body);
      return { detail: `${point.package}: ${point.downloads} downloads ${point.start}..${point.end}` };
    }
    case "downloads-range": {
      const range = rangeSchema.parse(body);
      return { detail: `${range.package}: ${range.downloads.length} days ${range.start}..${range.end}` };
    }
    default:
      throw new UnknownKindError("npm", kind);
  }
}
