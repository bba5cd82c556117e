// Docker Hub's repository endpoint (GET /dockerhub/v2/repositories/{namespace}/{repo}) for images built
// from simulated repositories: pulls grow with stars and pushes; the body takes the recorded 2023 shape
// before 2024 and the newer shape (last_modified, storage_size, immutable_tags_settings…) from 2024 on.
import { formatInstant, parseDay } from "../dates.ts";
import { pushedInstant } from "../github/rest-json.ts";
import { type HttpReply, jsonReply, type SimRequest } from "../http/reply.ts";
import { linksOf } from "../links.ts";
import * as m from "../metrics.ts";
import { between, hash32, SALT, unit } from "../random.ts";
import { descriptionOf } from "../repo-text.ts";
import type { World } from "../world.ts";

const NEW_SHAPE_FROM = parseDay("2024-01-01") as number;

/** Docker Hub's timestamps carry microseconds. */
function stamp(world: World, i: number, instant: number, salt: number): string {
  return `${formatInstant(instant).slice(0, 19)}.${String(hash32(world.seed, i, salt, SALT.docker) % 1_000_000).padStart(6, "0")}Z`;
}

export function dockerRegistered(world: World, i: number): number {
  return (world.params.created[i] as number) + between(unit(world.seed, i, SALT.docker, 1), 3, 120);
}

export function dockerRepository(world: World, i: number, now: number) {
  const [namespace, name] = (linksOf(world).dockerName(i) as string).split("/") as [string, string];
  // pulls per star are log-uniform over 10..500: a CLI image is pulled a few times, a server's by every deploy
  const perStar = 10 ** between(unit(world.seed, i, SALT.docker, 2), 1, 2.7);
  const pulls = Math.floor(m.starsBase(world, i, now) * perStar + m.commits(world, i, now) * 3);
  const registered = dockerRegistered(world, i);
  const updated = Math.max(registered, Math.min(now, pushedInstant(world, i, now) + 0.05));
  const base = {
    user: namespace,
    name,
    namespace,
    repository_type: "image",
    status: 1,
    status_description: "active",
    description: descriptionOf(world, i) ?? "",
    is_private: false,
    is_automated: false,
    star_count: Math.floor(m.starsBase(world, i, now) * 0.01),
    pull_count: pulls,
    last_updated: stamp(world, i, updated, 1),
    date_registered: stamp(world, i, registered, 2),
    collaborator_count: 0,
    affiliation: null,
    hub_user: namespace,
    has_starred: false,
    full_description: `Image of https://github.com/${world.fullName(i)}`,
    permissions: { read: true, write: false, admin: false },
    media_types: ["application/vnd.oci.image.index.v1+json"],
    content_types: ["image"],
  };
  if (now < NEW_SHAPE_FROM) return base;
  return {
    ...base,
    last_modified: stamp(world, i, updated, 3),
    categories: [],
    immutable_tags_settings: { enabled: false, rules: [".*"] },
    storage_size: 50_000_000 + (hash32(world.seed, i, SALT.docker) % 5_000_000_000),
    source: null,
  };
}

export function createDockerHubHandler(world: World, now: () => number) {
  return (req: SimRequest): HttpReply => {
    const match = /^\/v2\/repositories\/([^/]+)\/([^/]+)\/?$/.exec(req.path);
    const index = match ? linksOf(world).findDocker(match[1] as string, match[2] as string) : undefined;
    if (req.method !== "GET" || index === undefined || dockerRegistered(world, index) > now())
      return jsonReply(404, { message: "object not found", errinfo: {} });
    return jsonReply(200, dockerRepository(world, index, now()));
  };
}
