// The compact per-repository parameters of the world, held in typed arrays (about 80 bytes a repository):
// everything else about a repository is derived from these, the seed and the date.
import { DAYS_PER_YEAR } from "./dates.ts";
import { DORMANT, FINISHED, RISING, STEADY } from "./kinds.ts";
import { commitsPerRelease, popularKind, taggedChance } from "./popular.ts";
import { between, normal, pickWeighted, SALT, unit } from "./random.ts";
import { DOMAINS, LANGUAGE_WEIGHTS, LICENSE_WEIGHTS } from "./vocabulary.ts";

export { DORMANT, FADING, FINISHED, RISING, STEADY, TRAJECTORIES, type Trajectory } from "./kinds.ts";

export const FLAG_FORK = 1;
export const FLAG_EMPTY = 2;
export const FLAG_PYPI = 4;
export const FLAG_GH_RELEASES = 8;
export const FLAG_HOMEPAGE = 16;

/** Share of repositories created after the anchor date (they appear as the clock moves). */
const FUTURE_SHARE = 0.02;
const HISTORY_YEARS = 8;

export interface RepoParams {
  created: Float64Array; // instant the repository was created
  ageRef: Float32Array; // days between creation and the anchor, at least 45: the time scale of its curves
  kind: Uint8Array; // index into TRAJECTORIES
  flags: Uint8Array;
  domain: Uint8Array;
  language: Int8Array; // index into LANGUAGES, -1 for none
  license: Int8Array; // index into LICENSES, -1 for none
  popularity: Float32Array; // star scale P
  starMid: Float32Array; // logistic midpoint of star growth, days after creation
  starWidth: Float32Array;
  starShare: Float32Array; // share of P that follows the logistic; the rest grows linearly
  actRate: Float32Array; // commits per day at full activity
  actTau: Float32Array;
  actMid: Float32Array;
  actStop: Float64Array; // instant activity stops (dormancy or archiving), Infinity if never
  archivedAt: Float64Array; // instant the repository is archived, Infinity if never
  releaseRate: Float32Array; // releases per commit
  releaseOffset: Float32Array;
  downloadsPerStar: Float32Array;
}

function allocate(n: number): RepoParams {
  return {
    created: new Float64Array(n),
    ageRef: new Float32Array(n),
    kind: new Uint8Array(n),
    flags: new Uint8Array(n),
    domain: new Uint8Array(n),
    language: new Int8Array(n),
    license: new Int8Array(n),
    popularity: new Float32Array(n),
    starMid: new Float32Array(n),
    starWidth: new Float32Array(n),
    starShare: new Float32Array(n),
    actRate: new Float32Array(n),
    actTau: new Float32Array(n),
    actMid: new Float32Array(n),
    actStop: new Float64Array(n),
    archivedAt: new Float64Array(n),
    releaseRate: new Float32Array(n),
    releaseOffset: new Float32Array(n),
    downloadsPerStar: new Float32Array(n),
  };
}

/** Creation instant: index order is creation order, denser towards the anchor (the AI boom). */
function createdInstant(seed: number, i: number, n: number, anchorDay: number): number {
  const q = (i + 0.5) / n;
  const jitter = unit(seed, i, SALT.created);
  if (q >= 1 - FUTURE_SHARE) return anchorDay + 1 + ((q - (1 - FUTURE_SHARE)) / FUTURE_SHARE) * 364 + jitter;
  const yearsBack = HISTORY_YEARS * (1 - q / (1 - FUTURE_SHARE)) ** 1.7;
  return anchorDay - yearsBack * DAYS_PER_YEAR + jitter;
}

/**
 * Star scale: log-normal, as GitHub's AI repositories are (median in the tens, a long tail under 100, a few
 * past 10^5): log10 P ~ N(POPULARITY_LOG10_MEDIAN, POPULARITY_LOG10_SIGMA), capped at POPULARITY_MAX.
 */
const POPULARITY_LOG10_MEDIAN = 1.75;
const POPULARITY_LOG10_SIGMA = 1.08;
const POPULARITY_MAX = 400_000;
/** A rising repository's scale is larger: it has not reached its plateau yet. */
const RISING_BOOST = 1.6;
/**
 * Chance that a repository publishes a package, by how popular it is (log10 of P): most small ones never do,
 * most big ones do. Scaled per language (Python publishes to PyPI far more than anything else).
 */
const PACKAGE_BASE = -0.04;
const PACKAGE_PER_DECADE = 0.12;
const PACKAGE_MAX = 0.85;
/**
 * Past POPULAR_PACKAGE_FROM stars the chance climbs POPULAR_PACKAGE_PER_DECADE more per decade, up to
 * POPULAR_PACKAGE_MAX: a popular AI project is a library people install. Measured on the reality check's real list
 * (test/fixtures/reality/, best-of-ml-python 2025-06-26): 98% of its projects with 100–1,000 stars, 91% with
 * 1,000–10,000 and all past 10,000 publish a package; this world had 19%, 20% and 41% (its curve was drawn for
 * small repositories, where it still holds). A Python repository now packages at 26% at 300 stars, 58% at 1,000 and
 * 95% from about 5,000; other languages in proportion. With it the demo's tiers land where the methodology's
 * ranges say (bench/results/reality-check.json).
 */
const POPULAR_PACKAGE_FROM = 300;
const POPULAR_PACKAGE_PER_DECADE = 0.5;
const POPULAR_PACKAGE_MAX = 0.95;
/**
 * Chance that a repository has no licence GitHub can name, by its star scale. LICENSE_WEIGHTS leave 12% of small
 * repositories without one and give 4% "Other" (NOASSERTION, which the score counts as no licence either); from
 * NO_LICENSE_FALL_FROM stars both fall log-linearly to NO_LICENSE_POPULAR of their small chance at NO_LICENSE_FALL_TO
 * and stay there (1.5% none, 0.5% Other). A popular project nearly always carries a licence (a company cannot adopt
 * one without it). Measured on the reality check's real list (test/fixtures/reality/, best-of-ml-python
 * 2025-06-26): 4 of its 426 projects lack a licence, 3 of 299 with at least 1,000 stars (1.0%), 2 of 108 with at
 * least 5,000 (1.9%) and none of 18 with at least 20,000, and 4 of the 299 carry one GitHub may not name (Intel,
 * PIL, ICU); this world drew 12% and 4% at every scale, so 5 of the demo's 27 projects scoring 76 or more had no
 * licence points.
 */
const NO_LICENSE_FALL_FROM = 300;
const NO_LICENSE_FALL_TO = 2_000;
const NO_LICENSE_POPULAR = 0.125;
/** LICENSE_WEIGHTS in percent: the named licences come first, "Other" last; the rest up to 100 have none. */
const OTHER_LICENSE = LICENSE_WEIGHTS.length - 1;
const NAMED_PERCENT = LICENSE_WEIGHTS.slice(0, OTHER_LICENSE).reduce((sum, w) => sum + w, 0);
const LICENSED_PERCENT = NAMED_PERCENT + (LICENSE_WEIGHTS[OTHER_LICENSE] as number);

/**
 * Licence index (into LICENSES, -1 for none) from the repository's licence roll and star scale. The roll keeps its
 * bands: a named licence drawn at small scale is the same at every scale, an Other or none band shrinks from its top
 * and the freed part takes a named licence from where the roll falls inside it (never Other from none, nor back).
 */
export function licenseIndex(unitRoll: number, popularity: number): number {
  const roll = unitRoll * 100;
  if (roll < NAMED_PERCENT) return pickWeighted(roll / LICENSED_PERCENT, LICENSE_WEIGHTS);
  const fall = Math.min(
    1,
    Math.max(
      0,
      Math.log10(popularity / NO_LICENSE_FALL_FROM) / Math.log10(NO_LICENSE_FALL_TO / NO_LICENSE_FALL_FROM),
    ),
  );
  const keep = 1 - (1 - NO_LICENSE_POPULAR) * fall;
  const named = LICENSE_WEIGHTS.slice(0, OTHER_LICENSE);
  const [from, to, kept] =
    roll < LICENSED_PERCENT ? [NAMED_PERCENT, LICENSED_PERCENT, OTHER_LICENSE] : [LICENSED_PERCENT, 100, -1];
  const freed = (to - from) * (1 - keep);
  return roll < from + freed ? pickWeighted((roll - from) / freed, named) : kept;
}
/** Chance of GitHub releases without a PyPI project: small repositories rarely tag, big active ones do. */
const RELEASES_BASE = 0.02;
const RELEASES_PER_DECADE = 0.14;
const RELEASES_MAX = 0.9;

const KIND_WEIGHTS_YOUNG = [25, 40, 15, 15, 5];
const KIND_WEIGHTS_OLD = [8, 30, 22, 28, 12];
const STAR_SHARE = [0.97, 0.35, 0.95, 0.98, 0.85];

export function generateParams(seed: number, n: number, anchorDay: number): RepoParams {
  const p = allocate(n);
  for (let i = 0; i < n; i++) {
    const u = (salt: number, k = 0) => unit(seed, i, salt, k);
    const created = createdInstant(seed, i, n, anchorDay);
    const age = anchorDay - created;
    const ageRef = Math.max(age, 45);
    p.created[i] = created;
    p.ageRef[i] = ageRef;
    const drawnKind = pickWeighted(u(SALT.kind), age < 365 ? KIND_WEIGHTS_YOUNG : KIND_WEIGHTS_OLD);

    let flags = 0;
    if (u(SALT.empty) < 0.015) flags |= FLAG_EMPTY;
    else if (u(SALT.flags, 1) < 0.03) flags |= FLAG_FORK;
    const domain = Math.floor(u(SALT.domain) * DOMAINS.length);
    p.domain[i] = domain;
    const profile = (DOMAINS[domain] as (typeof DOMAINS)[number]).languages;
    const language = flags & FLAG_EMPTY ? -1 : pickWeighted(u(SALT.language), LANGUAGE_WEIGHTS[profile]);
    p.language[i] = language;

    const logScale = normal(u(SALT.popularity), u(SALT.popularity, 1));
    let popularity = Math.min(
      POPULARITY_MAX,
      10 ** (POPULARITY_LOG10_MEDIAN + POPULARITY_LOG10_SIGMA * logScale),
    );
    if (drawnKind === RISING) popularity *= RISING_BOOST;
    if (flags & FLAG_FORK) popularity = Math.min(popularity, 40);
    if (flags & FLAG_EMPTY) popularity = Math.min(popularity, 15);
    // Kind and scale are drawn apart, but a big project is seldom dormant: popular.ts keeps most of them active
    // (key 1 of SALT.kind, so no other draw moves and small repositories are exactly as before).
    const kind = popularKind(drawnKind, popularity, u(SALT.kind, 1));
    p.kind[i] = kind;
    p.popularity[i] = popularity;
    p.license[i] = licenseIndex(u(SALT.license), popularity);
    p.starShare[i] = STAR_SHARE[kind] as number;
    if (kind === RISING) {
      p.starMid[i] = ageRef + between(u(SALT.starShape), -30, 240);
      p.starWidth[i] = between(u(SALT.starShape, 1), 25, 120);
    } else {
      p.starMid[i] = ageRef * (kind === STEADY ? 0.15 : between(u(SALT.starShape), 0.15, 0.35));
      p.starWidth[i] = Math.max(5, ageRef * between(u(SALT.starShape, 1), 0.06, 0.12));
    }

    // Commits per day grow with the project: a few a month for a small one, tens a day for the biggest.
    const lognormal = Math.exp(normal(u(SALT.activity), u(SALT.activity, 1)) * 1.0 - 1.9);
    let rate = Math.min(40, lognormal * (1 + popularity) ** 0.3);
    if (flags & FLAG_FORK) rate *= 0.1;
    if (flags & FLAG_EMPTY) rate = 0;
    p.actRate[i] = rate;
    const shape = u(SALT.activityShape);
    p.actTau[i] =
      kind === RISING
        ? between(shape, 30, 150)
        : ageRef * (kind === FINISHED ? between(shape, 0.1, 0.3) : between(shape, 0.25, 0.6));
    p.actMid[i] = kind === RISING ? ageRef - between(u(SALT.activityShape, 1), 0, 200) : 0;
    const dormantStop =
      kind === DORMANT ? created + ageRef * between(u(SALT.activityShape, 2), 0.15, 0.85) : Infinity;
    p.archivedAt[i] = archiveInstant(seed, i, kind, created, dormantStop, anchorDay);
    p.actStop[i] = Math.min(dormantStop, p.archivedAt[i] as number);

    const decades = Math.log10(1 + popularity);
    const pythonish =
      language === 0 ? 1 : language === 6 ? 0.15 : language === 3 || language === 5 ? 0.25 : 0.05;
    const popularDecades = Math.max(0, Math.log10(popularity / POPULAR_PACKAGE_FROM));
    const packaged = Math.min(
      POPULAR_PACKAGE_MAX,
      Math.min(PACKAGE_MAX, Math.max(0, PACKAGE_BASE + PACKAGE_PER_DECADE * decades)) +
        POPULAR_PACKAGE_PER_DECADE * popularDecades,
    );
    if (!(flags & (FLAG_EMPTY | FLAG_FORK)) && u(SALT.pypi) < pythonish * packaged) flags |= FLAG_PYPI;
    const tagged = Math.min(RELEASES_MAX, RELEASES_BASE + RELEASES_PER_DECADE * decades);
    const releases = flags & FLAG_PYPI ? 0.85 : flags & (FLAG_EMPTY | FLAG_FORK) ? 0 : tagged;
    if (u(SALT.releases) < taggedChance(releases, kind, popularity)) flags |= FLAG_GH_RELEASES;
    if (u(SALT.homepage) < 0.25 + 0.05 * Math.log10(1 + popularity)) flags |= FLAG_HOMEPAGE;
    p.flags[i] = flags;
    const perRelease = Math.max(between(u(SALT.releases, 1), 15, 150), 10 * rate);
    p.releaseRate[i] = 1 / commitsPerRelease(perRelease, kind, popularity, rate, u(SALT.releases, 3));
    p.releaseOffset[i] =
      flags & FLAG_PYPI ? between(u(SALT.releases, 2), 0.6, 0.99) : between(u(SALT.releases, 2), 0.3, 0.95);
    p.downloadsPerStar[i] = Math.exp(normal(u(SALT.downloads), u(SALT.downloads, 1)) * 1.3 + 0.4);
  }
  return p;
}

function archiveInstant(
  seed: number,
  i: number,
  kind: number,
  created: number,
  stop: number,
  anchor: number,
): number {
  const chance = [0.005, 0.005, 0.04, 0.12, 0.1][kind] as number;
  if (unit(seed, i, SALT.archive) >= chance) return Infinity;
  const v = unit(seed, i, SALT.archive, 1);
  const at = kind === DORMANT ? stop + between(v, 30, 700) : anchor + between(v, -700, 500);
  return Math.max(at, created + 1);
}
