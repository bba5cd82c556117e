// data of /api/v1/projects/{slug} (and items of /api/v1/projects/bulk): every field of the quality record, then
// repository metrics, downloads and packages, the score explained input by input, lifecycle, momentum, hype ratio,
// releases, 90 days of star and download history, links, and how fresh each source's facts are.
import { z } from "zod";
import { domainSchema, lifecycleStageSchema, qualityTierSchema, stackLayerSchema } from "./enums.ts";
import {
  COMPONENT_MAX_POINTS,
  checkComponentSum,
  checkTier,
  componentScoreSchema,
  countSchema,
  dateTimeSchema,
  downloadCountSchema,
  fullNameSchema,
  optionalTextSchema,
  qualityScoreSchema,
  repoNameSchema,
  slugSchema,
} from "./fields.ts";

/** Most recent releases shown in a detail; older ones are counted only. */
export const MAX_DETAIL_RELEASES = 10;
/** Nights of star and download history in a detail (the warehouse keeps 90 nights of snapshots). */
export const DETAIL_HISTORY_DAYS = 90;

const daySchema = z.iso.date();
const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "a month as YYYY-MM");
const deltaSchema = z.int().min(0).nullable();

const scoreInput = z.strictObject({
  name: z.string().min(1).describe("Input of the component, as named in the methodology"),
  value: z
    .union([z.number(), z.string(), z.boolean(), z.null()])
    .describe("Observed value; null when unknown (then scored by its documented fallback)"),
  points: z.number().min(0).describe("Points this input earned"),
  fallback: z
    .boolean()
    .describe(
      "The value is unknown (null): its points are what its documented fallback earned, not a measurement",
    ),
});

const componentExplanation = z.strictObject({
  points: componentScoreSchema.describe("Points of the component, 0 to 25"),
  max_points: z.literal(COMPONENT_MAX_POINTS).describe("Most points the component can earn"),
  inputs: z.array(scoreInput).describe("The inputs and the points each earned; they add up to points"),
});

const registrySchema = z
  .enum(["pypi", "npm", "docker", "huggingface"])
  .describe("Registry: pypi, npm, docker (Docker Hub) or huggingface (Hugging Face Hub)");

const packageFacts = z.strictObject({
  registry: registrySchema,
  package: z.string().min(1).describe("Package, image or model name in the registry"),
  version: optionalTextSchema.describe("Latest version; null for images and models"),
  downloads_monthly: downloadCountSchema.describe(
    "Downloads in the last 30 days; 0 for images (see pulls_total); null when unknown (no figure was read for it)",
  ),
  pulls_total: downloadCountSchema.describe(
    "Docker Hub pulls since the image was registered (Docker Hub reports no monthly count); null elsewhere, and when unknown",
  ),
  dependents: countSchema.describe("Tracked repositories whose PyPI or npm package declares this one"),
  latest_release_at: dateTimeSchema.nullable().describe("Latest release or update; null when unknown"),
  as_of: daySchema.describe("Night its facts were last read from the registry"),
  stale: z
    .boolean()
    .describe("Its facts are older than the registry's refresh schedule allows (failed reads)"),
});

/** A tracked project that does the same job (pipeline/sql/alternatives.sql; its rules are in the methodology). */
export const alternativeSchema = z.strictObject({
  full_name: fullNameSchema,
  slug: slugSchema,
  quality_score: qualityScoreSchema,
  quality_tier: qualityTierSchema,
  stars: countSchema.describe("Stars on GitHub"),
  match: z
    .enum(["same_subcategory", "shared_topics_or_dependencies"])
    .describe(
      "Why it is listed: the same subcategory, or the same domain and a distinctive shared topic or dependency",
    ),
});

/** A release as details show it: a GitHub release or a registry version. */
export const releaseSchema = z.strictObject({
  source: z
    .enum(["github", "pypi", "npm"])
    .describe("Where it was observed: a GitHub release or a registry version"),
  package: optionalTextSchema.describe("The registry package; null for a GitHub release"),
  version: z.string().min(1).describe("Release tag (GitHub) or version (registry)"),
  released_at: dateTimeSchema.nullable().describe("Publication time; null when the source gives none"),
  first_seen: daySchema.describe("Night the service first observed it"),
  prerelease: z.boolean().describe("A pre-release (PEP 440 or semver rules)"),
  url: z.url().describe("Page of the release"),
});

const dailySeries = (what: string, alsoNull = "") =>
  z
    .array(countSchema.nullable())
    .describe(
      `${what} each night from \`from\` to \`to\`, oldest first; null for a night without a snapshot${alsoNull}`,
    );

const monthlySeries = (what: string) =>
  z
    .array(countSchema.nullable())
    .describe(
      `${what} on the last night of each month from \`from\` to \`to\` the warehouse holds a snapshot of, oldest first; null for a month without one, or whose figure is unknown`,
    );

const paper = z.strictObject({
  arxiv_id: z.string().min(1).describe("arXiv identifier"),
  title: z.string().min(1).describe("Title of the paper"),
  url: z.url().describe("Abstract page on arXiv"),
  published_at: dateTimeSchema.nullable().describe("First version's publication time"),
});

const sourceFreshness = z.strictObject({
  source: z
    .enum(["github", "github_rest", "pypi", "npm", "dockerhub", "huggingface"])
    .describe(
      "github: repository facts; github_rest: contributors, weekly commits and issue response; the registries",
    ),
  as_of: daySchema
    .nullable()
    .describe(
      "Night this project's facts from the source were read (the oldest of its packages there); null when never",
    ),
  fresh: z
    .boolean()
    .describe("The source itself delivered on data_date (a failed source keeps its last facts)"),
});

const urls = (what: string) => z.array(z.url()).describe(`Pages of its ${what}`);

export const projectDetailSchema = z
  .strictObject({
    slug: slugSchema,
    full_name: fullNameSchema,
    owner: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/)
      .describe("Repository owner"),
    name: repoNameSchema,
    description: optionalTextSchema.describe("Short description; null when the repository has none"),
    stars: countSchema.describe("Star count"),
    forks: countSchema
      .nullable()
      .describe("Fork count; null when unknown (a release built from a list that did not record it)"),
    language: optionalTextSchema.describe("Main programming language; null when none is detected"),
    license: optionalTextSchema.describe("License identifier (SPDX); null when none is detected"),
    subcategory: optionalTextSchema.describe("Category inside the domain; null when no rule matched"),
    pypi_package: optionalTextSchema.describe("Matching Python package; null when there is none"),
    downloads_monthly: downloadCountSchema.describe(
      "Monthly downloads of the linked packages (PyPI + npm + Hugging Face); 0 when none is linked; null when unknown (no figure was read for it), as in the datasets and the public database",
    ),
    quality_score: qualityScoreSchema,
    quality_tier: qualityTierSchema,
    maintenance_score: componentScoreSchema.describe("Maintenance points, 0 to 25"),
    adoption_score: componentScoreSchema.describe("Adoption points, 0 to 25"),
    maturity_score: componentScoreSchema.describe("Maturity points, 0 to 25"),
    community_score: componentScoreSchema.describe("Community points, 0 to 25"),
    domain: domainSchema,
    stack_layer: stackLayerSchema.nullable().describe("Stack layer; null when unclassified"),
    classification_rule: z
      .string()
      .min(1)
      .describe('The rule that decided the domain, e.g. topics: mcp-server or keywords: "vector database"'),
    topics: z.array(z.string().min(1)).describe("Repository topics"),
    archived: z.boolean().describe("The repository is archived (read-only)"),
    fork: z
      .boolean()
      .nullable()
      .describe(
        "The repository is a fork; null when unknown (a release built from a list, which never records it)",
      ),
    created_at: dateTimeSchema.describe("Creation of the repository"),
    pushed_at: dateTimeSchema.nullable().describe("Last push; null when the repository is empty"),
    last_commit_at: dateTimeSchema
      .nullable()
      .describe("Last commit on the default branch; null when unknown"),
    metrics: z
      .strictObject({
        watchers: countSchema
          .nullable()
          .describe("Watchers; null when unknown (a release built from a list that did not record it)"),
        open_issues: countSchema
          .nullable()
          .describe("Open issues; null when unknown (a release built from a list that did not record it)"),
        closed_issues: countSchema
          .nullable()
          .describe("Closed issues; null when unknown (a release built from a list that did not record it)"),
        contributors: countSchema.nullable().describe("Contributors; null until the REST activity was read"),
        commits_30d: countSchema
          .nullable()
          .describe(
            "Commits to the default branch in the last 30 days; null when unknown (a release built from a list that did not record it)",
          ),
        commits_90d: countSchema
          .nullable()
          .describe(
            "Commits to the default branch in the last 90 days; null when unknown (a release built from a list that did not record it)",
          ),
        commits_52w: countSchema
          .nullable()
          .describe("Commits in the last 52 weeks; null until the activity was read"),
        issue_response_median_hours: z
          .number()
          .min(0)
          .nullable()
          .describe(
            "Median hours from an issue's opening to its first response (90 days); null when unknown",
          ),
        dependents: countSchema
          .nullable()
          .describe(
            "Tracked repositories whose packages depend on its packages; null when unknown (a release built from a list, which records no package dependencies)",
          ),
        hn_posts_90d: countSchema.describe("Hacker News posts linking it in the last 90 days"),
        hn_points_90d: countSchema.describe("Points of those posts"),
        papers: countSchema.describe("arXiv papers linking it"),
      })
      .describe("Repository metrics"),
    downloads: z
      .strictObject({
        monthly_total: downloadCountSchema.describe(
          "PyPI + npm + Hugging Face downloads in 30 days (downloads_monthly); 0 when none is linked; null when unknown",
        ),
        pypi: z
          .strictObject({
            package: z.string().min(1).describe("Its main PyPI package"),
            monthly: downloadCountSchema.describe(
              "Downloads of all its PyPI packages in 30 days; null when unknown",
            ),
          })
          .nullable()
          .describe("null without a PyPI package"),
        npm: z
          .strictObject({
            package: z.string().min(1).describe("Its main npm package"),
            monthly: downloadCountSchema.describe(
              "Downloads of all its npm packages in 30 days; null when unknown",
            ),
          })
          .nullable()
          .describe("null without an npm package"),
        huggingface: z
          .strictObject({
            models: countSchema.describe("Hugging Face models linking the repository"),
            monthly: downloadCountSchema.describe("Downloads of those models in 30 days; null when unknown"),
          })
          .nullable()
          .describe("null without a linked model"),
        docker: z
          .strictObject({
            image: z.string().min(1).describe("Its main Docker Hub image"),
            pulls_total: downloadCountSchema.describe(
              "Pulls of its images since registration (not monthly); null when unknown",
            ),
          })
          .nullable()
          .describe("null without a Docker Hub image"),
      })
      .describe("Downloads by registry"),
    packages: z.array(packageFacts).describe("Every linked package, by registry then name"),
    score_explanation: z
      .strictObject({
        maintenance: componentExplanation,
        adoption: componentExplanation,
        maturity: componentExplanation,
        community: componentExplanation,
        archived: z.boolean().describe("Archived: maintenance earns 0"),
        finished_project: z
          .boolean()
          .describe(
            "Told apart from an abandoned one (stable, adopted, answered): maintenance kept at a floor",
          ),
        history_share: z
          .number()
          .min(0)
          .max(1)
          .describe(
            "Share of its history (maturity, community) the project keeps: below 1 after a year without a sign of life",
          ),
        fallbacks: z
          .array(z.string().min(1))
          .describe("Inputs unknown tonight (value null, marked fallback) and scored by their fallback"),
        estimated: z
          .array(z.string().min(1))
          .describe(
            "Inputs whose value is read from a stand-in (the push date, an all-time total spread over months)",
          ),
        flags: z
          .array(z.enum(["package_mismatch"]))
          .describe(
            "Figures not to trust: package_mismatch (a popular repository's package is hardly downloaded)",
          ),
      })
      .describe("Why it scored what it did: each component's inputs and points (rules in the methodology)"),
    lifecycle_stage: lifecycleStageSchema,
    lifecycle_since: daySchema.describe("Night it entered its current lifecycle stage"),
    first_seen: daySchema.describe("Night the service first tracked it"),
    momentum: z
      .strictObject({
        score: z
          .number()
          .nullable()
          .describe(
            "7-day star rate against the 30-day one: 0 steady, -1 stopped, above 0 faster (capped at 10)",
          ),
        stars_7d_delta: deltaSchema.describe(
          "Stars gained in 7 days; null when the count 7 days ago is unknown",
        ),
        stars_30d_delta: deltaSchema.describe(
          "Stars gained in 30 days; null when the count 30 days ago is unknown",
        ),
        growth_7d_pct: z
          .number()
          .min(0)
          .nullable()
          .describe("stars_7d_delta as % of the count 7 days ago (at least 25)"),
        growth_30d_pct: z
          .number()
          .min(0)
          .nullable()
          .describe("stars_30d_delta as % of the count 30 days ago (at least 25)"),
        downloads_change_pct_30d: z
          .number()
          .nullable()
          .describe("Change of monthly downloads against 30 nights ago, %; null without a non-zero baseline"),
      })
      .describe("Star and download trends"),
    hype_ratio: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe(
        "Attention (stars, Hacker News points) against adoption (downloads, dependents) on log scales: 0.5 balanced, towards 1 all attention; null with neither",
      ),
    alternatives: z
      .array(alternativeSchema)
      .describe(
        "Up to alternatives_max (methodology) tracked projects that do the same job: the same subcategory first, then the same domain sharing a distinctive topic or dependency, each group by quality score; empty when none",
      ),
    releases: z
      .strictObject({
        count: countSchema.describe("Releases on GitHub (GitHub's count)"),
        observed: countSchema.describe("Releases the service observed on GitHub, PyPI and npm"),
        latest: z.array(releaseSchema).max(MAX_DETAIL_RELEASES).describe("The newest observed, newest first"),
      })
      .describe("Releases"),
    history: z
      .strictObject({
        from: daySchema.describe("First night of the series"),
        to: daySchema.describe("Last night of the series (data_date)"),
        stars: dailySeries("Star count"),
        downloads_monthly: dailySeries(
          "Monthly downloads (PyPI + npm + Hugging Face)",
          ", and before the first night any tracked project counted downloads (the registries not yet read)",
        ),
      })
      .describe(`The last ${DETAIL_HISTORY_DAYS} nights, one value a night`),
    history_monthly: z
      .strictObject({
        from: monthSchema.describe("Month of the project's first snapshot the warehouse holds (YYYY-MM)"),
        to: monthSchema.describe("Month of data_date (YYYY-MM)"),
        stars: monthlySeries("Star count"),
        downloads_monthly: monthlySeries("Monthly downloads (PyPI + npm + Hugging Face)"),
      })
      .describe(
        `Every night the warehouse holds, one value a month: years for a release built from a list's history (projintel demo --list), the last ${DETAIL_HISTORY_DAYS} nights for a nightly's (its warehouse keeps them; the history's Parquet files keep every night)`,
      ),
    links: z
      .strictObject({
        repository: z.url().describe("Repository page"),
        homepage: optionalTextSchema.describe("Homepage as the repository states it; null when none is set"),
        pypi: urls("PyPI packages"),
        npm: urls("npm packages"),
        docker: urls("Docker Hub images"),
        huggingface: urls("Hugging Face models"),
        papers: z.array(paper).describe("arXiv papers linking it, newest first"),
      })
      .describe("Where to read more"),
    freshness: z
      .strictObject({
        stale: z
          .boolean()
          .describe("GitHub did not answer for it on data_date: its facts are carried forward"),
        carried: z
          .boolean()
          .describe(
            "Its collection shard did not finish on data_date and the night was scored without it: every value is the previous night's",
          ),
        counts_as_of: daySchema.describe(
          "Night of its last full GitHub refresh (issues, commits, releases counts)",
        ),
        sources: z
          .array(sourceFreshness)
          .describe("The sources its facts come from; packages carry their own as_of"),
      })
      .describe("How fresh its facts are, source by source"),
    data_date: daySchema.describe("Night of the data (UTC)"),
    badge_markdown: z
      .string()
      .min(1)
      .describe(
        "Markdown to paste in a README: the quality badge (/badges/{owner}/{repo}.svg) linking to the project's page (/p/{owner}/{repo})",
      ),
  })
  .superRefine((d, ctx) => {
    checkTier(d, ctx);
    checkComponentSum(d, [d.maintenance_score, d.adoption_score, d.maturity_score, d.community_score], ctx);
    const e = d.score_explanation;
    const points = [e.maintenance.points, e.adoption.points, e.maturity.points, e.community.points];
    checkComponentSum(d, points, ctx);
    // an input scored by its fallback has no value, and the fallbacks list names exactly those inputs
    const marked = [e.maintenance, e.adoption, e.maturity, e.community].flatMap((c) =>
      c.inputs.filter((i) => i.fallback).map((i) => i.name),
    );
    if (
      marked.some((name) => !e.fallbacks.includes(name)) ||
      e.fallbacks.some((name) => !marked.includes(name))
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["score_explanation", "fallbacks"],
        message: `fallbacks must name exactly the inputs marked fallback (${marked.join(", ") || "none"})`,
      });
    }
    for (const c of [e.maintenance, e.adoption, e.maturity, e.community]) {
      for (const i of c.inputs.filter((x) => x.fallback && x.value !== null)) {
        ctx.addIssue({
          code: "custom",
          path: ["score_explanation", "fallbacks"],
          message: `${i.name} is marked fallback but has a value: an input scored by its fallback is unknown (null)`,
        });
      }
    }
    if (`${d.owner}/${d.name}` !== d.full_name) {
      ctx.addIssue({ code: "custom", path: ["full_name"], message: "full_name must be owner/name" });
    }
    const m = d.history_monthly;
    const months = monthIndex(m.to) - monthIndex(m.from) + 1;
    for (const key of ["stars", "downloads_monthly"] as const) {
      if (m[key].length !== months) {
        ctx.addIssue({
          code: "custom",
          path: ["history_monthly", key],
          message: `history_monthly.${key} must hold one value per month from ${m.from} to ${m.to}`,
        });
      }
    }
    const days = (Date.parse(d.history.to) - Date.parse(d.history.from)) / 86_400_000 + 1;
    for (const key of ["stars", "downloads_monthly"] as const) {
      if (d.history[key].length !== days) {
        ctx.addIssue({
          code: "custom",
          path: ["history", key],
          message: `history.${key} must hold one value per night from ${d.history.from} to ${d.history.to}`,
        });
      }
    }
  })
  .describe("Project detail");

export type ProjectDetail = z.infer<typeof projectDetailSchema>;

/** Months since year 0 of a YYYY-MM (or YYYY-MM-DD): consecutive months are consecutive numbers. */
export function monthIndex(month: string): number {
  return Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
}
