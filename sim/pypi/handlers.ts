// PyPI's JSON API (GET /pypi/<project>/json, with ETag and 304) and pypistats' recent downloads
// (GET /api/packages/<project>/recent), both looked up by PEP 503-normalised name.
import { createHash } from "node:crypto";
import { recentDownloads } from "../downloads.ts";
import type { HttpReply } from "../github/graphql-handler.ts";
import { exists, releaseCount } from "../metrics.ts";
import { normalisePypiName } from "../names.ts";
import { releasesWithInstants } from "../releases.ts";
import type { World } from "../world.ts";
import { projectJson } from "./project-json.ts";

export interface PypiHandlerOptions {
  world: World;
  /** The sim clock's current instant. */
  now(): number;
}

const NOT_FOUND: HttpReply = {
  status: 404,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ message: "Not Found" }),
};

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const value = candidate.trim().replace(/^W\//, "");
    return value === "*" || value === etag;
  });
}

export function createPypiHandlers(options: PypiHandlerOptions) {
  const { world } = options;
  /** Index of a project published at the current instant, or undefined. */
  const published = (name: string): number | undefined => {
    const index = world.findPypi(name);
    const now = options.now();
    if (index === undefined || !exists(world, index, now) || releaseCount(world, index, now) < 1)
      return undefined;
    return index;
  };

  return {
    project(name: string, ifNoneMatch: string | undefined): HttpReply {
      const index = published(name);
      if (index === undefined) return NOT_FOUND;
      const now = options.now();
      const count = releaseCount(world, index, now);
      // The body changes only when a release appears, so the ETag is a digest of what determines it.
      const digest = createHash("md5").update(
        `${world.seed}:${world.size}:${world.anchorDay}:${index}:${count}`,
      );
      const etag = `"${digest.digest("base64").replace(/=+$/, "")}"`;
      const headers = { etag, "cache-control": "max-age=900, public" };
      if (etagMatches(ifNoneMatch, etag)) return { status: 304, headers, body: "" };
      const body = projectJson(world, index, releasesWithInstants(world, index, now));
      return {
        status: 200,
        headers: {
          "content-type": "application/json",
          ...headers,
          "x-pypi-last-serial": String(body.last_serial),
        },
        body: JSON.stringify(body),
      };
    },

    recent(name: string, period: string | null): HttpReply {
      const index = published(name);
      if (index === undefined) return NOT_FOUND;
      const all = recentDownloads(world, index, Math.floor(options.now()));
      const key = period ? `last_${period}` : undefined;
      const data = key && key in all ? { [key]: all[key as keyof typeof all] } : all;
      const body = { data, package: normalisePypiName(name), type: "recent_downloads" };
      return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    },
  };
}
