// The page for people of one project (/p/{owner}/{repo}): score and tier with the four components and their inputs,
// lifecycle, 90 nights of stars and of downloads drawn as SVG (by month too when the warehouse holds earlier nights),
// releases, alternatives when the record has them, the badge with its Markdown, and links to the JSON. Static HTML in
// the frame of /docs, no scripts. Pure: drawn by the shim from the project detail record (publish/routes/project-page.ts).
import { type ChartSeries, renderLineChart } from "../core/svg/line-chart.ts";
import { formatCompact } from "../core/svg/scale.ts";
import { monthIndex, type ProjectDetail } from "../schemas/project-detail.ts";
import { badgePath, projectPagePath, qualityBadgeText, TIER_COLORS, trendBadgeText } from "./badges.ts";
import { escapeHtml, page } from "./html.ts";

/** Rules of the pages for people on top of the shared frame. */
export const PAGE_STYLE = `
.page{padding:0 2rem 3rem;max-width:60rem}
.tier{display:inline-block;padding:0 .5rem;border-radius:4px;color:#fff;font-size:.8em;vertical-align:middle}
.bar{display:inline-block;height:.7rem;background:#1f6feb;border-radius:2px;vertical-align:middle}
.chart{margin:.5rem 0 1rem}
.chart svg{max-width:100%;height:auto}
pre{background:#f4f6fa;padding:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-all}
td.num{text-align:right}
`;

/** One night after another from `from`, `count` of them, as YYYY-MM-DD. */
export function nightsFrom(from: string, count: number): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
}

/** One month after another from `from` (YYYY-MM), `count` of them, as YYYY-MM. */
export function monthsFrom(from: string, count: number): string[] {
  const first = monthIndex(from);
  return Array.from(
    { length: count },
    (_, i) => `${Math.floor((first + i) / 12)}-${String(((first + i) % 12) + 1).padStart(2, "0")}`,
  );
}

/** A tier shown in its badge colour. */
export function tierLabel(tier: ProjectDetail["quality_tier"]): string {
  return `<span class="tier" style="background:${TIER_COLORS[tier].hex}">${escapeHtml(tier)}</span>`;
}

function chart(title: string, dates: string[], series: ChartSeries[]): string {
  return `<div class="chart">${renderLineChart({ title, dates, series })}</div>`;
}

const COMPONENTS = ["maintenance", "adoption", "maturity", "community"] as const;

type ScoreInput = ProjectDetail["score_explanation"]["maintenance"]["inputs"][number];

/**
 * An input's value → points as every page shows it: an unknown input reads "unknown (fallback)", so the points its
 * documented fallback earned are never taken for a measurement (the project page and /compare alike).
 */
export function scoreInputCell(i: Pick<ScoreInput, "value" | "points" | "fallback">): string {
  const value =
    i.value === null
      ? i.fallback
        ? "unknown (fallback)"
        : "unknown"
      : typeof i.value === "number"
        ? i.value.toLocaleString("en-US")
        : escapeHtml(String(i.value));
  return `${value} → ${i.points}`;
}

/** What the explanation says beside its table: inputs unknown, estimated, figures flagged and faded history. */
export function explanationNotes(e: ProjectDetail["score_explanation"]): string {
  const notes: string[] = [];
  if (e.fallbacks.length > 0)
    notes.push(
      `Unknown tonight, shown as “unknown (fallback)” and scored by their fallback (the share all its known inputs earned): ${escapeHtml(e.fallbacks.join(", "))}.`,
    );
  if (e.estimated.length > 0)
    notes.push(`Estimated from a stand-in (see the methodology): ${escapeHtml(e.estimated.join(", "))}.`);
  if (e.flags.includes("package_mismatch"))
    notes.push(
      "package_mismatch: the package is hardly downloaded for a repository this popular; it is most likely not this project's package, so its downloads are not to be trusted.",
    );
  if (e.history_share < 1)
    notes.push(
      `No sign of life for over a year: its maturity and community history count at ${Math.round(e.history_share * 100)}%.`,
    );
  return notes.map((n) => `<p class="rules">${n}</p>`).join("\n");
}

function breakdown(d: ProjectDetail): string {
  const rows = COMPONENTS.map((name) => {
    const c = d.score_explanation[name];
    const inputs = c.inputs.map((i) => `${escapeHtml(i.name)} ${scoreInputCell(i)}`).join("; ");
    return `<tr><td>${name}</td><td class="num">${c.points} / ${c.max_points}</td><td><span class="bar" style="width:${c.points * 6}px"></span></td><td>${inputs}</td></tr>`;
  }).join("");
  return `<table><thead><tr><th>component</th><th>points</th><th></th><th>inputs (value → points)</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function releases(d: ProjectDetail): string {
  if (d.releases.latest.length === 0)
    return `<p>No release observed (GitHub counts ${d.releases.count}).</p>`;
  const rows = d.releases.latest
    .map(
      (r) =>
        `<tr><td><a href="${escapeHtml(r.url)}">${escapeHtml(r.version)}</a>${r.prerelease ? " (pre-release)" : ""}</td><td>${r.source}${r.package ? ` ${escapeHtml(r.package)}` : ""}</td><td>${escapeHtml((r.released_at ?? r.first_seen).slice(0, 10))}</td></tr>`,
    )
    .join("");
  return `<p>${d.releases.count} on GitHub; the newest observed:</p><table><thead><tr><th>version</th><th>where</th><th>released</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** An alternative as the record may list it (issue 24: name, score, tier and stars). */
interface Alternative {
  full_name?: string;
  name?: string;
  slug?: string;
  quality_score?: number;
  quality_tier?: ProjectDetail["quality_tier"];
  stars?: number;
}

function alternatives(record: Record<string, unknown>): string {
  const list = record.alternatives;
  if (!Array.isArray(list) || list.length === 0) return "";
  const rows = (list as Alternative[])
    .map((a) => {
      const shown = a.full_name ?? a.name ?? a.slug ?? "";
      const name = a.full_name
        ? `<a href="${escapeHtml(projectPagePath(a.full_name))}">${escapeHtml(shown)}</a>`
        : escapeHtml(shown);
      const tier = a.quality_tier ? tierLabel(a.quality_tier) : "";
      return `<tr><td>${name}</td><td class="num">${a.quality_score ?? ""}</td><td>${tier}</td><td class="num">${a.stars === undefined ? "" : formatCompact(a.stars)}</td></tr>`;
    })
    .join("");
  return `<h2>Alternatives</h2><table><thead><tr><th>project</th><th>score</th><th>tier</th><th>stars</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** Why a project's downloads chart is not drawn: its figure unknown (said so, never shown as 0), or none above 0. */
function noDownloads(d: ProjectDetail): string {
  if (d.downloads_monthly === null) return "Monthly downloads unknown: no download figure was read for it.";
  return "No linked package with downloads.";
}

/**
 * The charts by month of a project whose history the warehouse holds from before the nightly charts' first month (a
 * release built from a list's years): stars, and downloads when any month has some. Empty otherwise (a nightly's
 * warehouse holds the nightly charts' nights alone).
 */
function monthlyCharts(d: ProjectDetail): string {
  const h = d.history_monthly;
  if (monthIndex(h.from) >= monthIndex(d.history.from)) return "";
  const months = monthsFrom(h.from, h.stars.length);
  const span = `${h.from} to ${h.to}`;
  const downloads = h.downloads_monthly.some((v) => v !== null && v > 0)
    ? `<h2>Monthly downloads since ${h.from}, by month</h2>
${chart(`Monthly downloads of ${d.full_name} by month, ${span}`, months, [{ name: "downloads", values: h.downloads_monthly, color: "#d55e00" }])}`
    : "";
  return `<h2>Stars since ${h.from}, by month</h2>
${chart(`Stars of ${d.full_name} by month, ${span}`, months, [{ name: "stars", values: h.stars }])}
<p class="rules">Each month's value is its last night's; a gap is a month without one.</p>
${downloads}
`;
}

export function renderProjectPage(detail: ProjectDetail): string {
  const d = detail;
  const dates = nightsFrom(d.history.from, d.history.stars.length);
  const quality = qualityBadgeText(d);
  const trend = trendBadgeText(d);
  const m = d.momentum;
  const delta = (v: number | null) => (v === null ? "unknown" : `+${v.toLocaleString("en-US")}`);
  const json = `/api/v1/projects/${encodeURIComponent(d.slug)}`;
  const hasDownloads = d.history.downloads_monthly.some((v) => v !== null && v > 0);
  const body = `<header><h1>${escapeHtml(d.full_name)} <small>${escapeHtml(d.domain)}${d.subcategory ? ` · ${escapeHtml(d.subcategory)}` : ""}</small></h1>
<p>${escapeHtml(d.description ?? "No description.")}</p>
<p><a href="${escapeHtml(d.links.repository)}">Repository</a>${d.links.homepage ? ` · <a href="${escapeHtml(d.links.homepage)}">Homepage</a>` : ""} · <a href="/d/${d.domain}">${escapeHtml(d.domain)} leaderboard</a> · <a href="/docs">API</a></p></header>
<main class="page">
<h2>AI quality ${d.quality_score} ${tierLabel(d.quality_tier)}</h2>
${breakdown(d)}
${explanationNotes(d.score_explanation)}
<h2>Lifecycle</h2>
<p><strong>${escapeHtml(d.lifecycle_stage)}</strong> since ${d.lifecycle_since}; tracked since ${d.first_seen}. Stars ${d.stars.toLocaleString("en-US")}: ${delta(m.stars_7d_delta)} in 7 days, ${delta(m.stars_30d_delta)} in 30 days. Monthly downloads ${d.downloads_monthly === null ? "unknown" : d.downloads_monthly.toLocaleString("en-US")}.</p>
${monthlyCharts(d)}<h2>Stars, ${dates.length} nights</h2>
${chart(`Stars of ${d.full_name}, ${d.history.from} to ${d.history.to}`, dates, [{ name: "stars", values: d.history.stars }])}
<h2>Monthly downloads, ${dates.length} nights</h2>
${hasDownloads ? chart(`Monthly downloads of ${d.full_name}, ${d.history.from} to ${d.history.to}`, dates, [{ name: "downloads", values: d.history.downloads_monthly, color: "#d55e00" }]) : `<p>${noDownloads(d)}</p>`}
<h2>Releases</h2>
${releases(d)}
${alternatives(detail as unknown as Record<string, unknown>)}
<h2>Badges</h2>
<p><img src="${escapeHtml(badgePath(d.full_name))}" alt="${escapeHtml(`${quality.label}: ${quality.message}`)}"> <img src="${escapeHtml(badgePath(d.full_name, "trend"))}" alt="${escapeHtml(`${trend.label}: ${trend.message}`)}"></p>
<p>Paste in a README:</p><pre><code>${escapeHtml(d.badge_markdown)}</code></pre>
<p>For shields.io styles: <code>https://img.shields.io/endpoint?url=</code> and the address of <a href="${escapeHtml(badgePath(d.full_name, "json"))}">${escapeHtml(badgePath(d.full_name, "json"))}</a>.</p>
<h2>Data</h2>
<ul><li><a href="${escapeHtml(json)}">${escapeHtml(json)}</a>: everything above as JSON</li>
<li><a href="/api/v1/quality/${d.domain}/${encodeURIComponent(d.slug)}">/api/v1/quality/${d.domain}/${escapeHtml(d.slug)}</a>: the quality record</li></ul>
<p class="rules">Data of the night of ${d.data_date}.</p>
</main>`;
  return page(`${d.full_name}: AI quality ${d.quality_score} ${d.quality_tier}`, body, PAGE_STYLE);
}
