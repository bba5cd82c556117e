// The domain pages for people (/d/{domain}): each domain's leaderboard — its best repositories by quality with
// score, tier, stars, the week's gain, lifecycle stage and a trend line of 90 nights of stars. Rendered at publish
// (30 small files, from publish/sql/domain_pages.sql) into d/<domain>.html with Brotli and gzip copies.

import { formatCompact } from "../core/svg/scale.ts";
import { renderSparkline } from "../core/svg/sparkline.ts";
import { DOMAINS, type Domain, type QualityTier } from "../schemas/index.ts";
import type { Artifact } from "./artifacts.ts";
import { projectPagePath } from "./badges.ts";
import { encodedCopies } from "./compression.ts";
import { escapeHtml, page } from "./html.ts";
import { PAGE_STYLE, tierLabel } from "./pages.ts";
import { collectionSql } from "./render-collection.ts";
import { domainPageFile } from "./routes/domain-page.ts";

/** Repositories a domain page lists: a leaderboard to read, not the whole list (the JSON pages that). */
export const DOMAIN_PAGE_ROWS = 50;
/** Nights of stars each trend line draws (the project detail's window). */
const NIGHTS = 90;
/**
 * The least span of a leaderboard's shared trend scale, as a share of a project's stars: the trend lines draw each
 * project's change since its first night on one scale for the whole table, at least 0 to +10% (a strong 90 nights),
 * so a project gaining 1 star of 4,000 draws flat beside one that grew by a third, instead of filling its own box.
 */
const MIN_TREND_SPAN = 0.1;

export interface DomainPageRow {
  domain: string;
  rank: number;
  total: number;
  full_name: string;
  slug: string;
  description: string | null;
  quality_score: number;
  quality_tier: QualityTier;
  stars: number;
  stars_7d_delta: number | null;
  lifecycle_stage: string;
  nights: { night: number; stars: number }[];
}

/** A dense series of NIGHTS values from the nights a repository has, null where a night is missing. */
export function starSeries(nights: readonly { night: number; stars: number }[]): (number | null)[] {
  const series: (number | null)[] = Array.from({ length: NIGHTS }, () => null);
  for (const n of nights) if (n.night >= 0 && n.night < NIGHTS) series[n.night] = Number(n.stars);
  return series;
}

/** A series as its change since its first known value (0.05 is +5%), null where unknown. */
export function relativeSeries(series: readonly (number | null)[]): (number | null)[] {
  const first = series.find((v) => v !== null);
  if (first === undefined || first === null) return series.map(() => null);
  // a project starting at 0 stars: its change is measured against 1 star
  return series.map((v) => (v === null ? null : (v - first) / Math.max(first, 1)));
}

/** The range every trend line of a leaderboard is drawn on: every row's change, and at least 0 to MIN_TREND_SPAN. */
export function sharedTrendRange(series: readonly (number | null)[][]): { low: number; high: number } {
  const known = series.flat().filter((v): v is number => v !== null);
  const low = Math.min(0, ...known);
  return { low, high: Math.max(low + MIN_TREND_SPAN, ...known) };
}

const percent = (share: number) => `${share >= 0 ? "+" : "−"}${Math.abs(Math.round(share * 1000) / 10)}%`;

export function renderDomainPage(domain: Domain, rows: readonly DomainPageRow[], runDate: string): string {
  const total = rows[0]?.total ?? 0;
  const series = rows.map((r) => starSeries(r.nights));
  const relative = series.map(relativeSeries);
  const range = sharedTrendRange(relative);
  const body = rows
    .map((r, i) => {
      const known = (series[i] as (number | null)[]).filter((v): v is number => v !== null);
      const change =
        known.length > 1
          ? `: ${(known[0] as number).toLocaleString("en-US")} to ${(known.at(-1) as number).toLocaleString("en-US")} (${percent(relative[i]?.findLast((v) => v !== null) as number)})`
          : "";
      const line = renderSparkline(relative[i] as (number | null)[], {
        title: `Stars of ${r.full_name}, 90 nights to ${runDate}${change}`,
        width: 120,
        height: 24,
        range,
      });
      const gained = r.stars_7d_delta === null ? "" : `+${formatCompact(Number(r.stars_7d_delta))}`;
      return `<tr><td class="num">${r.rank}</td><td><a href="${escapeHtml(projectPagePath(r.full_name))}">${escapeHtml(r.full_name)}</a><br><small class="rules">${escapeHtml((r.description ?? "").slice(0, 120))}</small></td><td class="num">${r.quality_score}</td><td>${tierLabel(r.quality_tier)}</td><td class="num">${formatCompact(Number(r.stars))}</td><td class="num">${gained}</td><td>${escapeHtml(r.lifecycle_stage)}</td><td class="trend">${line}</td></tr>`;
    })
    .join("");
  const others = DOMAINS.map((d) =>
    d === domain ? `<strong>${d}</strong>` : `<a href="/d/${d}">${d}</a>`,
  ).join(" · ");
  const table =
    rows.length === 0
      ? "<p>No tracked repository in this domain tonight.</p>"
      : `<table><thead><tr><th>#</th><th>project</th><th>score</th><th>tier</th><th>stars</th><th>7 days</th><th>lifecycle</th><th>stars, 90 nights</th></tr></thead><tbody>${body}</tbody></table>`;
  const html = `<header><h1>${escapeHtml(domain)} <small>AI quality leaderboard</small></h1>
<p>The ${rows.length} best of ${total.toLocaleString("en-US")} tracked repositories of the domain, by quality score (then stars). Data of the night of ${runDate}.</p>
<p><a href="/api/v1/quality?domain=${domain}">/api/v1/quality?domain=${domain}</a>: the whole list as JSON · <a href="/docs">API</a></p></header>
<main class="page">${table}${rows.length === 0 ? "" : `<p class="rules">The trend lines share one scale, each project's change in stars since the first of the 90 nights, from ${percent(range.low)} (bottom) to ${percent(range.high)} (top): a flat line is a project whose stars hardly moved.</p>`}<h2>Other domains</h2><p>${others}</p></main>`;
  return page(`${domain}: AI quality leaderboard`, html, PAGE_STYLE);
}

export const renderDomainPages: Artifact = async (context, write) => {
  const rows = await context.db.all<DomainPageRow>(await collectionSql("domain_pages"), {
    rows: DOMAIN_PAGE_ROWS,
  });
  const files = DOMAINS.map((domain) => ({
    path: domainPageFile(domain),
    body: Buffer.from(
      renderDomainPage(
        domain,
        rows.filter((r) => r.domain === domain),
        context.runDate,
      ),
      "utf8",
    ),
    contentType: "text/html; charset=utf-8",
  }));
  // the 60 copies compressed side by side, then written in the pages' order
  const copies = await Promise.all(files.map(encodedCopies));
  for (const [i, file] of files.entries()) {
    await write(file);
    for (const copy of copies[i] ?? []) await write(copy);
  }
};
