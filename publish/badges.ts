// What the badges say: "AI quality | 77 established" coloured by tier, "stars 7d | +1.2k growing" coloured by
// lifecycle stage, a grey "not tracked" for a repository the service does not track (an image must still render in
// a README), and the same in shields.io's endpoint schema. Pure functions of a project detail record.

import { makeBadge } from "badge-maker";
import { z } from "zod";
import { type Db, sqlLiteral } from "../core/db.ts";
import { renderBadge } from "../core/svg/badge.ts";
import { formatCompact } from "../core/svg/scale.ts";
import type { LifecycleStage, QualityTier } from "../schemas/index.ts";
import type { ProjectDetail } from "../schemas/project-detail.ts";
import { HOURLY_PUBLIC } from "./route-spec.ts";

/** A colour as shields.io names it (its endpoint schema takes the name) and the hex it stands for. */
interface BadgeColor {
  name: string;
  hex: string;
}

const BRIGHTGREEN: BadgeColor = { name: "brightgreen", hex: "#4c1" };
const GREEN: BadgeColor = { name: "green", hex: "#97ca00" };
const YELLOW: BadgeColor = { name: "yellow", hex: "#dfb317" };
const ORANGE: BadgeColor = { name: "orange", hex: "#fe7d37" };
const BLUE: BadgeColor = { name: "blue", hex: "#007ec6" };
const LIGHTGREY: BadgeColor = { name: "lightgrey", hex: "#9f9f9f" };

/** Tier colours: green for the best two, yellow, orange for experimental (red would read as a failure). */
export const TIER_COLORS: Readonly<Record<QualityTier, BadgeColor>> = {
  verified: BRIGHTGREEN,
  established: GREEN,
  emerging: YELLOW,
  experimental: ORANGE,
};

/** Lifecycle colours: blue while young, green while it grows or holds, orange fading, grey dormant. */
export const STAGE_COLORS: Readonly<Record<LifecycleStage, BadgeColor>> = {
  emerging: BLUE,
  launching: BLUE,
  growing: BRIGHTGREEN,
  established: GREEN,
  fading: ORANGE,
  dormant: LIGHTGREY,
};

export const QUALITY_LABEL = "AI quality";
export const TREND_LABEL = "stars 7d";
export const NOT_TRACKED = "not tracked";

export interface BadgeText {
  label: string;
  message: string;
  color: BadgeColor;
}

/** The fields of a project detail the badges read. */
export type BadgeFacts = Pick<
  ProjectDetail,
  "quality_score" | "quality_tier" | "lifecycle_stage" | "momentum"
>;

export function qualityBadgeText(detail: BadgeFacts | undefined): BadgeText {
  if (!detail) return { label: QUALITY_LABEL, message: NOT_TRACKED, color: LIGHTGREY };
  return {
    label: QUALITY_LABEL,
    message: `${detail.quality_score} ${detail.quality_tier}`,
    color: TIER_COLORS[detail.quality_tier],
  };
}

/** Stars gained in 7 days ("+1.2k", "n/a" while the count of 7 days ago is unknown) and the lifecycle stage. */
export function trendBadgeText(detail: BadgeFacts | undefined): BadgeText {
  if (!detail) return { label: TREND_LABEL, message: NOT_TRACKED, color: LIGHTGREY };
  const delta = detail.momentum.stars_7d_delta;
  const gained = delta === null ? "n/a" : `+${formatCompact(delta)}`;
  return {
    label: TREND_LABEL,
    message: `${gained} ${detail.lifecycle_stage}`,
    color: STAGE_COLORS[detail.lifecycle_stage],
  };
}

/** shields.io's badge styles, asked for with ?style= as on shields.io. */
export const BADGE_STYLES = ["flat", "flat-square", "for-the-badge", "plastic", "social"] as const;
export type BadgeStyle = (typeof BADGE_STYLES)[number];

/** How a README asks a badge to look: shields.io's `style` and `label` query parameters. */
export interface BadgeLook {
  style?: BadgeStyle | undefined;
  /** The left-hand text in place of the badge's own ("AI quality"). */
  label?: string | undefined;
}

/**
 * The badge as SVG. The default look (flat) is drawn by core/svg/badge.ts, as it always was, so every README's badge
 * keeps its bytes; another style is drawn by shields.io's own renderer (badge-maker, with its text measuring) rather
 * than each style by hand.
 */
export function badgeSvg(text: BadgeText, look: BadgeLook = {}): string {
  const label = look.label ?? text.label;
  if (look.style === undefined || look.style === "flat") {
    return renderBadge({ label, message: text.message, color: text.color.hex });
  }
  return makeBadge({ label, message: text.message, color: text.color.hex, style: look.style });
}

/** shields.io's endpoint schema, as far as these badges fill it. */
export const shieldsEndpointSchema = z
  .strictObject({
    schemaVersion: z.literal(1).describe("Always 1"),
    label: z.string().describe("Left-hand text"),
    message: z.string().describe("Right-hand text: score and tier, or not tracked"),
    color: z.string().describe("Right-hand colour, a shields.io colour name"),
    cacheSeconds: z.int().describe("How long shields.io may keep it"),
  })
  .describe("A badge in shields.io's endpoint schema");

/** The quality badge in shields.io's endpoint schema (https://shields.io/badges/endpoint-badge). */
export function shieldsEndpointJson(text: BadgeText): string {
  const endpoint = {
    schemaVersion: 1,
    label: text.label,
    message: text.message,
    color: text.color.name,
    // shields.io keeps it as long as we let a CDN keep the badge
    cacheSeconds: HOURLY_PUBLIC.maxAgeSeconds,
  };
  return `${JSON.stringify(endpoint)}\n`;
}

/** The paths of a repository's badges and page, as the routes serve them. */
export function badgePath(fullName: string, kind: "svg" | "trend" | "json" = "svg"): string {
  const [owner, repo] = fullName.split("/") as [string, string];
  const base = `/badges/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  return kind === "trend" ? `${base}/trend.svg` : `${base}.${kind}`;
}

export function projectPagePath(fullName: string): string {
  const [owner, repo] = fullName.split("/") as [string, string];
  return `/p/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
}

/** owner and repo of a slug (owner--repo: GitHub owners never hold "--"), for the documented example requests. */
export function ownerRepoOfSlug(slug: string): { owner: string; repo: string } {
  const at = slug.indexOf("--");
  return { owner: slug.slice(0, at), repo: slug.slice(at + 2) };
}

/** The Markdown to paste in a README: the quality badge linking to the project's page. */
export function badgeMarkdown(baseUrl: string, fullName: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  return `[![${QUALITY_LABEL}](${base}${badgePath(fullName)})](${base}${projectPagePath(fullName)})`;
}

/**
 * Sets the session variable project_detail.sql fills each detail's badge_markdown from: the Markdown above with
 * __owner__ and __repo__ in place of the names (which need no escaping: GitHub allows only [A-Za-z0-9._-] in them).
 */
export async function setBadgeMarkdownVariable(db: Db, baseUrl: string): Promise<void> {
  await db.run(`SET VARIABLE badge_markdown = ${sqlLiteral(badgeMarkdown(baseUrl, "__owner__/__repo__"))}`);
}
