// The npm registry's package document (GET /<name>) for a simulated package, in the shape of the
// recorded packument: versions (semver from a release sequence), time, dist-tags, repository, dependencies.
import { formatInstant } from "../dates.ts";
import { countBefore, pickTarget, weightedTargets } from "../dependency-targets.ts";
import { linksOf } from "../links.ts";
import * as m from "../metrics.ts";
import { between, hash32, hexDigest, SALT, unit } from "../random.ts";
import { descriptionOf, licenseOf } from "../repo-text.ts";
import { firstInstantReaching } from "../trajectory.ts";
import type { World } from "../world.ts";

const MAX_VERSIONS = 300;

/** Instant of the first publish (a few days after the repository was created). */
export function npmFirstPublish(world: World, i: number): number {
  return (world.params.created[i] as number) + between(unit(world.seed, i, SALT.npm, 2), 1, 30);
}

/** Versions published up to an instant (0 before the first publish). */
export function npmVersionCount(world: World, i: number, instant: number): number {
  if (instant < npmFirstPublish(world, i)) return 0;
  const rate = (world.params.releaseRate[i] as number) * 1.5;
  return 1 + Math.floor(rate * m.commits(world, i, instant));
}

/** Semver of the k-th version (0-based): strictly increasing, patch-heavy. */
export function semverOf(k: number): string {
  return `${Math.floor(k / 40)}.${Math.floor((k % 40) / 8)}.${k % 8}`;
}

/** Draws per dependency: a popular package picked twice is drawn again, so counts stay near uniform's. */
const DRAWS_PER_DEPENDENCY = 3;

/** Up to four packages of earlier repositories, chosen by popularity (sim/dependency-targets.ts). */
function dependencies(world: World, i: number): Record<string, string> {
  const links = linksOf(world);
  const targets = weightedTargets(world, links.npmIndices);
  const earlier = countBefore(targets, i);
  const out: Record<string, string> = {};
  const count = earlier === 0 ? 0 : Math.floor(unit(world.seed, i, SALT.npm, 3) * 5);
  for (let k = 0; k < count; k++) {
    for (let draw = 0; draw < DRAWS_PER_DEPENDENCY; draw++) {
      const j = pickTarget(targets, earlier, unit(world.seed, i, SALT.npm, 10 + k + 40 * draw));
      const name = links.npmName(j) as string;
      if (name in out) continue;
      out[name] = `^${Math.floor(unit(world.seed, i, SALT.npm, 20 + k) * 3)}.1.0`;
      break;
    }
  }
  return out;
}

export function packument(world: World, i: number, now: number) {
  const name = linksOf(world).npmName(i) as string;
  const count = npmVersionCount(world, i, now);
  const firstK = Math.max(0, count - MAX_VERSIONS);
  const github = `https://github.com/${world.fullName(i)}`;
  const repository = { type: "git", url: `git+${github}.git` };
  const owner = world.ownerLogin(world.ownerOf(i));
  const maintainer = { name: owner.toLowerCase(), email: `${owner.toLowerCase()}@example.org` };
  const description = descriptionOf(world, i) ?? "";
  const license = licenseOf(world, i)?.spdxId ?? "UNLICENSED";
  const deps = dependencies(world, i);
  const versions: Record<string, unknown> = {};
  const time: Record<string, string> = {};
  const first = npmFirstPublish(world, i);
  let previous = first;
  const instants: number[] = [];
  for (let k = firstK; k < count; k++) {
    const at =
      k === 0
        ? first
        : firstInstantReaching((x) => npmVersionCount(world, i, x), k + 1, previous, now, "low");
    instants.push(at);
    previous = at;
  }
  time.created = formatInstant(first).replace("Z", ".000Z");
  time.modified = formatInstant(instants[instants.length - 1] ?? first).replace("Z", ".000Z");
  for (let k = firstK; k < count; k++) {
    const version = semverOf(k);
    const shasum = hexDigest(world.seed, i, 50_000 + k, 40);
    const base = name.startsWith("@") ? name.split("/")[1] : name;
    versions[version] = {
      name,
      version,
      description,
      main: "dist/index.js",
      repository,
      license,
      dependencies: deps,
      devDependencies: {},
      gitHead: hexDigest(world.seed, i, 60_000 + k, 40),
      _id: `${name}@${version}`,
      _npmUser: maintainer,
      maintainers: [maintainer],
      dist: {
        shasum,
        tarball: `https://registry.npmjs.org/${name}/-/${base}-${version}.tgz`,
        integrity: `sha512-${Buffer.from(hexDigest(world.seed, i, 70_000 + k, 128), "hex").toString("base64")}`,
      },
    };
    time[version] = formatInstant(instants[k - firstK] as number).replace("Z", ".000Z");
  }
  return {
    _id: name,
    _rev: `${count}-${hexDigest(world.seed, i, hash32(world.seed, i, count), 32)}`,
    name,
    description,
    "dist-tags": { latest: semverOf(count - 1) },
    versions,
    maintainers: [maintainer],
    time,
    author: { name: owner },
    repository,
    readme: `# ${name}\n\n${description}\n\nSource: ${github}\n`,
    homepage: `${github}#readme`,
    bugs: { url: `${github}/issues` },
    license,
    readmeFilename: "README.md",
  };
}
