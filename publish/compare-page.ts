// The comparison page for people (/compare?projects=a,b,…): 2 to 5 projects side by side — score and tier, the four
// components and every input that earned their points, lifecycle, stars and downloads — and their 90 nights of stars
// and of monthly downloads overlaid in one SVG chart each. Static HTML in the frame of /docs, no scripts. Pure: drawn
// by the shim from the project detail records (publish/routes/compare-page.ts).
import { type ChartSeries, renderLineChart, SERIES_COLORS } from "../core/svg/line-chart.ts";
import { formatCompact } from "../core/svg/scale.ts";
import type { ProjectDetail } from "../schemas/project-detail.ts";
import { projectPagePath } from "./badges.ts";
import { escapeHtml, page } from "./html.ts";
import { nightsFrom, PAGE_STYLE, scoreInputCell, tierLabel } from "./pages.ts";
import type { FoundRecord } from "./route-spec.ts";

const COMPARE_STYLE = `
.compare td.num{text-align:right}
.swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.3rem;vertical-align:middle}
.compare th.row{font-weight:normal;background:#fafbfd}
.compare tr.group th{background:#eef1f7;font-weight:600}
`;

const COMPONENTS = ["maintenance", "adoption", "maturity", "community"] as const;
const CHART_WIDTH = 880;

/** The colour of the project at a position: the chart's series colour, shown beside its name in the table too. */
function colorAt(i: number): string {
  return SERIES_COLORS[i % SERIES_COLORS.length] as string;
}

function value(v: unknown): string {
  if (v === null || v === undefined) return "unknown";
  if (typeof v === "number") return v.toLocaleString("en-US");
  return escapeHtml(String(v));
}

/** One row of the table: a label, then a cell per project. */
function row(label: string, cells: readonly string[], numeric = true): string {
  const tds = cells.map((c) => `<td${numeric ? ' class="num"' : ""}>${c}</td>`).join("");
  return `<tr><th class="row">${label}</th>${tds}</tr>`;
}

function group(label: string, span: number): string {
  return `<tr class="group"><th colspan="${span + 1}">${escapeHtml(label)}</th></tr>`;
}

function table(projects: readonly ProjectDetail[]): string {
  const head = projects
    .map(
      (d, i) =>
        `<th><span class="swatch" style="background:${colorAt(i)}"></span><a href="${escapeHtml(projectPagePath(d.full_name))}">${escapeHtml(d.full_name)}</a></th>`,
    )
    .join("");
  const delta = (v: number | null) => (v === null ? "unknown" : `+${v.toLocaleString("en-US")}`);
  const rows = [
    row(
      "AI quality",
      projects.map((d) => `<strong>${d.quality_score}</strong> ${tierLabel(d.quality_tier)}`),
      false,
    ),
    ...COMPONENTS.map((name) =>
      row(
        `${name}`,
        projects.map((d) => `${d.score_explanation[name].points} / ${d.score_explanation[name].max_points}`),
      ),
    ),
    row(
      "domain",
      projects.map((d) => `${escapeHtml(d.domain)}${d.subcategory ? ` · ${escapeHtml(d.subcategory)}` : ""}`),
      false,
    ),
    row(
      "lifecycle",
      projects.map((d) => `${escapeHtml(d.lifecycle_stage)} since ${d.lifecycle_since}`),
      false,
    ),
    row(
      "stars",
      projects.map((d) => value(d.stars)),
    ),
    row(
      "stars in 7 days",
      projects.map((d) => delta(d.momentum.stars_7d_delta)),
    ),
    row(
      "stars in 30 days",
      projects.map((d) => delta(d.momentum.stars_30d_delta)),
    ),
    row(
      "monthly downloads",
      projects.map((d) => value(d.downloads_monthly)),
    ),
    row(
      "releases on GitHub",
      projects.map((d) => value(d.releases.count)),
    ),
    row(
      "last commit",
      projects.map((d) => value(d.last_commit_at?.slice(0, 10) ?? null)),
    ),
    row(
      "license",
      projects.map((d) => value(d.license)),
      false,
    ),
  ];
  // every input of each component, as value → points, an input a project lacks left blank
  for (const name of COMPONENTS) {
    rows.push(group(`${name}: inputs (value → points)`, projects.length));
    const inputs = [...new Set(projects.flatMap((d) => d.score_explanation[name].inputs.map((i) => i.name)))];
    for (const input of inputs) {
      rows.push(
        row(
          escapeHtml(input),
          projects.map((d) => {
            const found = d.score_explanation[name].inputs.find((i) => i.name === input);
            return found ? scoreInputCell(found) : "";
          }),
        ),
      );
    }
  }
  return `<table class="compare"><thead><tr><th></th>${head}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function overlaid(title: string, dates: string[], series: ChartSeries[]): string {
  return `<div class="chart">${renderLineChart({ title, dates, series, width: CHART_WIDTH, height: 260 })}</div>`;
}

/** A name not tracked, with a search of the tracked projects for its repository name (the part after / or --). */
function searchFor(asked: string): string {
  const name = asked.split(/\/|--/).at(-1) || asked;
  return `<code>${escapeHtml(asked)}</code> (<a href="/api/v1/projects?q=${encodeURIComponent(name)}">search for ${escapeHtml(name)}</a>)`;
}

/** The page comparing the projects found, in the order asked; the names not tracked are listed with a way to find them. */
export function renderComparePage(found: readonly FoundRecord[]): string {
  const projects = found.flatMap((f) => (f.record ? [f.record as unknown as ProjectDetail] : []));
  const missing = found.filter((f) => !f.record).map((f) => f.asked);
  const names = projects.map((d) => d.full_name);
  const asked = found.map((f) => f.asked).join(",");
  const json = `/api/v1/compare?projects=${encodeURIComponent(asked).replaceAll("%2C", ",").replaceAll("%2F", "/")}`;
  const notTracked =
    missing.length > 0 ? `<p class="rules">Not tracked: ${missing.map(searchFor).join(", ")}.</p>` : "";
  const first = projects[0];
  let body: string;
  if (!first) {
    body = `<main class="page"><p>None of these projects is tracked.</p>${notTracked}</main>`;
  } else {
    const dates = nightsFrom(first.history.from, first.history.stars.length);
    const period = `${first.history.from} to ${first.history.to}`;
    const stars = projects.map((d) => ({ name: d.full_name, values: d.history.stars }));
    const downloads = projects.map((d) => ({ name: d.full_name, values: d.history.downloads_monthly }));
    const hasDownloads = projects.some((d) => d.history.downloads_monthly.some((v) => v !== null && v > 0));
    body = `<main class="page">
${notTracked}
${table(projects)}
<h2>Stars, ${dates.length} nights</h2>
${overlaid(`Stars of ${names.join(", ")}, ${period}`, dates, stars)}
<h2>Monthly downloads, ${dates.length} nights</h2>
${hasDownloads ? overlaid(`Monthly downloads of ${names.join(", ")}, ${period}`, dates, downloads) : "<p>None of them has a linked package with downloads.</p>"}
<p class="rules">An input shown “unknown (fallback)” was not known tonight: its points are what its documented fallback earned (the share all the project's known inputs earned; the methodology: <a href="/api/v1/methodology">/api/v1/methodology</a>), not a measurement.</p>
<p class="rules">Stars peak at ${projects.map((d) => `${escapeHtml(d.full_name)} ${formatCompact(Math.max(0, ...d.history.stars.filter((v): v is number => v !== null)))}`).join(", ")}: curves of very different sizes share one axis, so a small project's may look flat. A gap is a night without a snapshot, or one before the registries were read (downloads unknown).</p>
<h2>Data</h2>
<ul><li><a href="${escapeHtml(json)}">${escapeHtml(json)}</a>: everything above as JSON</li>
${projects.map((d) => `<li><a href="${escapeHtml(projectPagePath(d.full_name))}">${escapeHtml(projectPagePath(d.full_name))}</a>: ${escapeHtml(d.full_name)}'s page</li>`).join("\n")}</ul>
<p class="rules">Data of the night of ${first.data_date}.</p>
</main>`;
  }
  const header = `<header><h1>Compare <small>${projects.length} projects</small></h1><p>${names.map((n, i) => `<span class="swatch" style="background:${colorAt(i)}"></span>${escapeHtml(n)}`).join(" · ")} · <a href="/docs">API</a></p></header>`;
  return page(
    `Compare ${names.join(", ") || "projects"}`,
    `${header}\n${body}`,
    `${PAGE_STYLE}${COMPARE_STYLE}`,
  );
}
