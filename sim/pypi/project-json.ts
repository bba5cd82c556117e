// The body of PyPI's JSON API (GET /pypi/<project>/json) for a simulated project, in the shape of the
// recorded real bodies: info, last_serial, releases (version → files), urls (files of the current version).
import { formatPypiTimes } from "../dates.ts";
import { normalisePypiName } from "../names.ts";
import { hash32, hexDigest, SALT, unit } from "../random.ts";
import type { ReleaseRecord } from "../releases.ts";
import { descriptionOf, homepageOf, licenseOf, topicNames } from "../repo-text.ts";
import type { World } from "../world.ts";
import { dependenciesOf } from "./dependencies.ts";

type Release = ReleaseRecord & { at: number };

const YANK_REASONS = ["Broken wheel", "Wrong dependency pins", "Published by mistake"];

function fileRecord(world: World, i: number, release: Release, name: string, kind: "sdist" | "wheel") {
  const stem = normalisePypiName(name).replace(/-/g, "_");
  const filename =
    kind === "sdist"
      ? `${stem}-${release.pypiVersion}.tar.gz`
      : `${stem}-${release.pypiVersion}-py3-none-any.whl`;
  const salt = release.k * 2 + (kind === "sdist" ? 0 : 1);
  const blake = hexDigest(world.seed, i, salt * 3 + 1, 64);
  const md5 = hexDigest(world.seed, i, salt * 3 + 2, 32);
  const at = release.at + (2 + 20 * unit(world.seed, i, SALT.files, salt)) / 1440;
  const times = formatPypiTimes(at, hash32(world.seed, i, salt, SALT.files) % 1_000_000);
  return {
    comment_text: "",
    digests: { blake2b_256: blake, md5, sha256: hexDigest(world.seed, i, salt * 3 + 3, 64) },
    downloads: -1,
    filename,
    has_sig: false,
    md5_digest: md5,
    packagetype: kind === "sdist" ? "sdist" : "bdist_wheel",
    python_version: kind === "sdist" ? "source" : "py3",
    requires_python: ">=3.9",
    size: 8_000 + (hash32(world.seed, i, salt, SALT.files + 1) % 400_000),
    upload_time: times.plain,
    upload_time_iso_8601: times.iso,
    url: `https://files.pythonhosted.org/packages/${blake.slice(0, 2)}/${blake.slice(2, 4)}/${blake.slice(4)}/${filename}`,
    yanked: release.yanked,
    yanked_reason: release.yanked ? (YANK_REASONS[release.k % YANK_REASONS.length] as string) : null,
  };
}

function filesOf(world: World, i: number, release: Release, name: string) {
  if (unit(world.seed, i, SALT.files, 10_000 + release.k) < 0.02) return [];
  const wheel = fileRecord(world, i, release, name, "wheel");
  return release.isPrerelease ? [wheel] : [fileRecord(world, i, release, name, "sdist"), wheel];
}

function projectUrls(world: World, i: number): Record<string, string> {
  const github = `https://github.com/${world.fullName(i)}`;
  const homepage = homepageOf(world, i);
  const style = unit(world.seed, i, SALT.pypi, 3);
  if (style < 0.35) return { Homepage: homepage ?? github, Repository: github };
  if (style < 0.6) return homepage ? { Documentation: homepage, Source: github } : { Source: github };
  if (style < 0.8) return { Homepage: github };
  if (style < 0.9) return { "Bug Tracker": `${github}/issues`, "Source Code": github };
  return { Changelog: `${github}/releases`, GitHub: github };
}

/** The current version: the newest release that is neither a prerelease nor yanked (else the newest). */
function currentRelease(releases: readonly Release[]): Release {
  for (let j = releases.length - 1; j >= 0; j--) {
    const release = releases[j] as Release;
    if (!release.isPrerelease && !release.yanked) return release;
  }
  return releases[releases.length - 1] as Release;
}

export function projectJson(world: World, i: number, releases: readonly Release[]) {
  const name = world.pypiName(i) as string;
  const current = currentRelease(releases);
  const license = licenseOf(world, i);
  const modern = unit(world.seed, i, SALT.pypi, 4) < 0.5;
  const owner = world.ownerLogin(world.ownerOf(i));
  const summary = descriptionOf(world, i) ?? "";
  const files = new Map(releases.map((release) => [release.pypiVersion, filesOf(world, i, release, name)]));
  const versions = [...files.keys()].sort();
  const info: Record<string, unknown> = {
    author: world.isOrganization(world.ownerOf(i)) ? `The ${owner} team` : owner,
    author_email: `${owner}@example.org`,
    bugtrack_url: null,
    classifiers: [
      "Intended Audience :: Developers",
      ...(license && license.spdxId !== "NOASSERTION" ? [`License :: OSI Approved :: ${license.name}`] : []),
      "Programming Language :: Python :: 3",
      "Topic :: Scientific/Engineering :: Artificial Intelligence",
    ],
    description: `# ${name}\n\n${summary}\n`,
    description_content_type: "text/markdown",
    docs_url: null,
    download_url: modern ? null : "",
    downloads: { last_day: -1, last_month: -1, last_week: -1 },
    dynamic: modern ? null : undefined,
    home_page: modern ? null : (homepageOf(world, i) ?? `https://github.com/${world.fullName(i)}`),
    keywords: topicNames(world, i).join(", "),
    license: modern || !license ? null : license.spdxId,
    license_expression: modern && license && license.spdxId !== "NOASSERTION" ? license.spdxId : undefined,
    license_files: modern && license ? ["LICENSE"] : undefined,
    maintainer: modern ? null : "",
    maintainer_email: modern ? null : "",
    name,
    package_url: `https://pypi.org/project/${name}/`,
    platform: null,
    project_url: `https://pypi.org/project/${name}/`,
    project_urls: projectUrls(world, i),
    provides_extra: modern ? ["dev"] : undefined,
    release_url: `https://pypi.org/project/${name}/${current.pypiVersion}/`,
    requires_dist: dependenciesOf(world, i),
    requires_python: ">=3.9",
    summary,
    version: current.pypiVersion,
    yanked: false,
    yanked_reason: null,
  };
  return {
    info,
    last_serial: 20_000_000 + i * 64 + releases.length,
    releases: Object.fromEntries(versions.map((version) => [version, files.get(version)])),
    urls: files.get(current.pypiVersion) ?? [],
    vulnerabilities: [],
  };
}
