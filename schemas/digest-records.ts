// Record schemas of the digest endpoints: what's new, briefings (list and detail), Hacker News posts and papers.
// Days are ISO dates (YYYY-MM-DD, UTC) and times ISO 8601 UTC; text a source may lack is null, never "".
import { z } from "zod";
import { domainSchema, lifecycleStageSchema } from "./enums.ts";
import { countSchema, dateTimeSchema, fullNameSchema, optionalTextSchema, slugSchema } from "./fields.ts";

/** Kinds of /api/v1/whats-new items, in the order a day lists them. */
export const WHATS_NEW_KINDS = ["post", "release", "trending"] as const;
export type WhatsNewKind = (typeof WHATS_NEW_KINDS)[number];
/** Where a release was seen: a GitHub release, a PyPI or an npm version. */
export const RELEASE_SOURCES = ["github", "pypi", "npm"] as const;

const daySchema = z.iso.date();
const urlSchema = z.url();
const projectNameSchema = fullNameSchema.describe("The project, owner/repository");
const projectSlugSchema = slugSchema.describe("The project's slug, the key of /api/v1/projects/{slug}");
const releaseSourceSchema = z
  .enum(RELEASE_SOURCES)
  .describe("Where the release was seen: github, pypi or npm");

/**
 * Items of /api/v1/whats-new: one typed list (kind) rather than an object of three arrays, so the digest pages and
 * filters like every other list (meta.total, limit, offset, kind, domain) and one rendered list answers every
 * look-back from 1 to 30 days. Fields of another kind are null.
 */
export const whatsNewItemSchema = z
  .strictObject({
    kind: z
      .enum(WHATS_NEW_KINDS)
      .describe(
        "post: a Hacker News story linking the project; release: a new version (pre-releases left out, one item per version across GitHub, PyPI and npm); trending: among the projects gaining the most stars in 7 days",
      ),
    date: daySchema.describe(
      "Day of the item: the release's or the post's day; for trending, the data's night",
    ),
    title: z.string().min(1).describe("Headline: owner/repo and version, the post's title, or owner/repo"),
    summary: z.string().min(1).describe("One sentence stating the item's numbers"),
    url: urlSchema.describe(
      "The release page (GitHub, PyPI or npm), the Hacker News discussion, or the repository",
    ),
    full_name: projectNameSchema,
    slug: projectSlugSchema,
    domain: domainSchema,
    stars: countSchema.describe("The project's stars today"),
    version: z.string().min(1).nullable().describe("release: the version or tag; null otherwise"),
    source: releaseSourceSchema.nullable().describe("release: github, pypi or npm; null otherwise"),
    stars_7d_delta: countSchema
      .nullable()
      .describe("trending: stars gained in the last 7 days; null otherwise"),
    points: countSchema.nullable().describe("post: Hacker News points; null otherwise"),
    comments: countSchema.nullable().describe("post: Hacker News comments; null otherwise"),
  })
  .describe("What's new item");

const briefingSlugSchema = slugSchema.describe(
  "The briefing's key, <domain>-<ISO year>-w<ISO week>, e.g. agents-2026-w47",
);
const briefingFields = {
  slug: briefingSlugSchema,
  domain: domainSchema,
  week: z
    .string()
    .regex(/^\d{4}-w\d{2}$/)
    .describe("ISO week the briefing covers, e.g. 2026-w47"),
  title: z.string().min(1).describe("Headline: the domain and its lead story"),
  summary: z
    .string()
    .min(1)
    .describe(
      "One sentence: how many projects rose (and the leader's gain), shipped, entered, changed stage and faded",
    ),
  published: daySchema.describe("The night it was written; rewritten each night of its week, then kept"),
};

/** Items of /api/v1/briefings, newest first: enough to list and link them (the Atom feed reads the same). */
export const briefingSummarySchema = z.strictObject(briefingFields).describe("Briefing (list item)");

const moverSchema = z
  .strictObject({
    full_name: projectNameSchema,
    slug: projectSlugSchema,
    stars: countSchema.describe("Stars today"),
    stars_7d_delta: countSchema.describe("Stars gained in the last 7 days"),
    momentum: z
      .number()
      .nullable()
      .describe("The 7-day pace against the 30-day one, 0 steady; null when unknown"),
  })
  .describe("A project that rose");
const entrantSchema = z
  .strictObject({
    full_name: projectNameSchema,
    slug: projectSlugSchema,
    stars: countSchema.describe("Stars today"),
    first_seen: daySchema.describe("The night it was first tracked"),
    lifecycle_stage: lifecycleStageSchema,
  })
  .describe("A project first tracked this week");
const transitionSchema = z
  .strictObject({
    full_name: projectNameSchema,
    slug: projectSlugSchema,
    date: daySchema.describe("The night the stage changed"),
    from_stage: lifecycleStageSchema.describe("Stage before"),
    to_stage: lifecycleStageSchema.describe("Stage after, still the project's stage today"),
  })
  .describe("A change of lifecycle stage");
const briefingReleaseSchema = z
  .strictObject({
    full_name: projectNameSchema,
    slug: projectSlugSchema,
    version: z.string().min(1).describe("Version or tag"),
    source: releaseSourceSchema,
    date: daySchema.describe("Release day"),
    url: urlSchema.describe("The release page"),
  })
  .describe("A release");

/** Data of /api/v1/briefings/{slug}: the full text and the facts it is written from. */
export const briefingDetailSchema = z
  .strictObject({
    ...briefingFields,
    body: z
      .array(z.string().min(1))
      .min(1)
      .describe(
        "The full text, one paragraph per section in reading order: what rose, shipped, entered, moved (changed stage) and faded — only those with news — then the numbers",
      ),
    days: z.int().min(1).describe("Days the week's sections look back over (rose, shipped, entered, moved)"),
    faded_days: z.int().min(1).describe("Days the faded section looks back over"),
    counts: z
      .strictObject({
        projects_tracked: countSchema.describe("Projects of the domain tracked"),
        stars_total: countSchema.describe("Their stars, summed"),
        rose: countSchema.describe("Projects that gained stars"),
        shipped: countSchema.describe("Releases shipped"),
        entered: countSchema.describe("Projects first tracked"),
        moved: countSchema.describe("Projects that changed stage, fading and dormant aside"),
        faded: countSchema.describe("Projects that turned fading or went dormant and still are"),
      })
      .describe("How many of each; the lists below name the first few of each"),
    movers: z.array(moverSchema).describe("Top projects by stars gained, most first"),
    entrants: z.array(entrantSchema).describe("Projects first tracked, most stars first"),
    transitions: z
      .array(transitionSchema)
      .describe("Changes of stage, most stars first: those into emerging to established, then fades"),
    releases: z.array(briefingReleaseSchema).describe("Releases of the most-starred projects first"),
    projects: z.array(projectNameSchema).describe("Every project the text names, sorted"),
  })
  .describe("Briefing");

/** Items of /api/v1/hn, newest first. */
export const hnPostSchema = z
  .strictObject({
    id: z.string().min(1).describe("Hacker News item id"),
    title: optionalTextSchema.describe("The story's title; null when Hacker News gives none"),
    url: urlSchema.describe("The link the story submits (a tracked repository)"),
    hn_url: urlSchema.describe("The discussion on Hacker News"),
    points: countSchema.describe("Points"),
    comments: countSchema.describe("Comments"),
    author: optionalTextSchema.describe("Submitter's Hacker News name; null when unknown"),
    posted_at: dateTimeSchema.describe("When it was posted"),
    project: z
      .strictObject({
        full_name: projectNameSchema,
        slug: projectSlugSchema,
        domain: domainSchema,
        stars: countSchema.describe("The project's stars today"),
      })
      .nullable()
      .describe("The tracked project the story links; null for a story linking none"),
  })
  .describe("Hacker News post");

/** Items of /api/v1/papers, newest first. */
export const paperSchema = z
  .strictObject({
    arxiv_id: z.string().min(1).describe("arXiv id without version, e.g. 2401.00001"),
    title: z.string().min(1).describe("Title"),
    authors: z.array(z.string().min(1)).describe("Authors, in the paper's order"),
    summary: z.string().describe("Abstract, whitespace collapsed"),
    published_at: dateTimeSchema.describe("First version's publication"),
    updated_at: dateTimeSchema.describe("Latest version's publication"),
    primary_category: optionalTextSchema.describe("arXiv primary category, e.g. cs.CL; null when none"),
    categories: z.array(z.string().min(1)).describe("Every arXiv category"),
    abs_url: urlSchema.describe("The abstract page on arXiv"),
    pdf_url: urlSchema.nullable().describe("The PDF on arXiv; null when arXiv gives none"),
    domains: z.array(domainSchema).describe("Domains of the projects implementing it, sorted"),
    projects: z
      .array(
        z.strictObject({
          full_name: projectNameSchema,
          slug: projectSlugSchema,
          domain: domainSchema,
          stars: countSchema.describe("Stars today"),
        }),
      )
      .min(1)
      .describe("Tracked projects linking the paper (implementations), most stars first"),
  })
  .describe("Research paper");
