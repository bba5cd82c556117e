// A line chart of one or more series over dates: one value per date, null for a night without data, drawn as a gap
// (a lone value between gaps as a dot, labelled with its value when it is the series' only one). The y axis starts
// at zero unless asked not to, and then is marked as cut. Horizontal grid lines at round values, the first, middle
// and last dates below, and a legend when there is more than one series. Pure: the same input gives the same bytes.
import { formatCompact, niceTicks } from "./scale.ts";
import { coord, escapeXml } from "./xml.ts";

export interface ChartSeries {
  name: string;
  /** One value per date of the chart; null where the night is missing. */
  values: readonly (number | null)[];
  /** A CSS colour; by default the palette's colour of the series' position. */
  color?: string;
}

export interface LineChartOptions {
  /** What the chart shows, for its <title> (screen readers, tooltips). */
  title: string;
  /** The dates of the x axis, oldest first, as YYYY-MM-DD. */
  dates: readonly string[];
  series: readonly ChartSeries[];
  width?: number;
  height?: number;
  /**
   * Start the y axis at zero (the default: counts such as stars read honestly, a dormant project's 4,173 to 4,176 as
   * flat). false starts it at the data's lowest round value, and the axis is drawn with a break mark (cut).
   */
  fromZero?: boolean;
}

/** Colours of series by position: distinct for the colour-blind (Okabe and Ito's palette). */
export const SERIES_COLORS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"] as const;

const MARGIN = { left: 60, right: 12, top: 10, bottom: 22 };
const LEGEND_ROW = 18;
const FONT = 'font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11"';

/** Radius of the dot drawn on a lone value (a value with a gap or an edge on each side), in pixels. */
const DOT_RADIUS = 3.5;

/** The indexes of a series' lone values: known, with no known value right before or after. */
function loneValues(values: readonly (number | null)[]): number[] {
  const known = (i: number) => values[i] !== null && values[i] !== undefined;
  return values.flatMap((_, i) => (known(i) && !known(i - 1) && !known(i + 1) ? [i] : []));
}

/** Path data of a series: a move at the start of each run of values, a dot (a zero-length line) for a lone value. */
function seriesPath(values: readonly (number | null)[], x: (i: number) => number, y: (v: number) => number) {
  const parts: string[] = [];
  let inRun = false;
  values.forEach((v, i) => {
    if (v === null) {
      inRun = false;
      return;
    }
    const point = `${coord(x(i))} ${coord(y(v))}`;
    if (inRun) parts.push(`L${point}`);
    else {
      const next = values[i + 1];
      // a lone value: round caps turn a zero-length line into a dot
      parts.push(next === null || next === undefined ? `M${point}h0` : `M${point}`);
    }
    inRun = true;
  });
  return parts.join("");
}

/** The chart as SVG text; throws RangeError when a series has not one value per date. */
export function renderLineChart(options: LineChartOptions): string {
  const { dates, series, title } = options;
  const width = options.width ?? 640;
  const height = options.height ?? 220;
  for (const s of series) {
    if (s.values.length !== dates.length) {
      throw new RangeError(`series ${s.name} has ${s.values.length} values for ${dates.length} dates`);
    }
  }
  const legend = series.length > 1 ? LEGEND_ROW : 0;
  const plot = {
    left: MARGIN.left,
    right: width - MARGIN.right,
    top: MARGIN.top + legend,
    bottom: height - MARGIN.bottom,
  };
  const known = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(title)}"><title>${escapeXml(title)}</title>`;
  const frame = `<rect x="${plot.left}" y="${plot.top}" width="${plot.right - plot.left}" height="${plot.bottom - plot.top}" fill="#fff" stroke="#e5e7eb"/>`;
  if (known.length === 0 || dates.length === 0) {
    const cx = (plot.left + plot.right) / 2;
    const cy = (plot.top + plot.bottom) / 2;
    return `${open}${frame}<text x="${coord(cx)}" y="${coord(cy)}" text-anchor="middle" fill="#6b7280" ${FONT}>no data for these nights</text></svg>`;
  }
  const fromZero = options.fromZero ?? true;
  const ticks = niceTicks(fromZero ? Math.min(0, ...known) : Math.min(...known), Math.max(...known));
  const low = ticks[0] as number;
  const high = ticks.length > 1 ? (ticks[ticks.length - 1] as number) : low + 1;
  const y = (v: number) => plot.bottom - ((v - low) / (high - low)) * (plot.bottom - plot.top);
  const span = Math.max(dates.length - 1, 1);
  const x = (i: number) =>
    dates.length === 1 ? (plot.left + plot.right) / 2 : plot.left + (i / span) * (plot.right - plot.left);

  // compact labels unless two ticks would read the same (112.5k and 113k both "113k"): then whole numbers
  const compact = ticks.map(formatCompact);
  const labels =
    new Set(compact).size === ticks.length ? compact : ticks.map((t) => t.toLocaleString("en-US"));
  const grid = ticks
    .map((t, i) => {
      const ty = coord(y(t));
      return `<line x1="${plot.left}" x2="${plot.right}" y1="${ty}" y2="${ty}" stroke="#e5e7eb"/><text x="${plot.left - 6}" y="${ty}" dy="4" text-anchor="end" fill="#6b7280" ${FONT}>${labels[i]}</text>`;
    })
    .join("");
  const labelAt = [...new Set([0, Math.floor((dates.length - 1) / 2), dates.length - 1])];
  const xLabels = labelAt
    .map((i, n) => {
      const anchor =
        labelAt.length === 1 ? "middle" : n === 0 ? "start" : n === labelAt.length - 1 ? "end" : "middle";
      return `<text x="${coord(x(i))}" y="${height - 6}" text-anchor="${anchor}" fill="#6b7280" ${FONT}>${escapeXml(dates[i] as string)}</text>`;
    })
    .join("");
  const colorOf = (s: ChartSeries, i: number): string =>
    s.color ?? (SERIES_COLORS[i % SERIES_COLORS.length] as string);
  const lines = series
    .map(
      (s, i) =>
        `<path class="series" data-series="${escapeXml(s.name)}" d="${seriesPath(s.values, x, y)}" fill="none" stroke="${escapeXml(colorOf(s, i))}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"><title>${escapeXml(s.name)}</title></path>`,
    )
    .join("");
  // a lone value is a dot big enough to see, and a series' only value also says what it is (else the chart of a
  // project whose downloads were read on one night of 90 looks empty)
  const dots = series
    .map((s, i) => {
      const color = escapeXml(colorOf(s, i));
      const knownCount = s.values.filter((v) => v !== null).length;
      return loneValues(s.values)
        .map((at) => {
          const v = s.values[at] as number;
          const [cx, cy] = [coord(x(at)), coord(y(v))];
          const dot = `<circle class="point" data-series="${escapeXml(s.name)}" cx="${cx}" cy="${cy}" r="${DOT_RADIUS}" fill="${color}"/>`;
          if (knownCount !== 1) return dot;
          const anchor = x(at) > plot.right - 40 ? "end" : x(at) < plot.left + 40 ? "start" : "middle";
          return `${dot}<text class="value" x="${cx}" y="${coord(y(v) - 2 * DOT_RADIUS)}" text-anchor="${anchor}" fill="${color}" ${FONT}>${v.toLocaleString("en-US")}</text>`;
        })
        .join("");
    })
    .join("");
  // an axis not starting at zero is cut: a break mark across its foot, so small changes are not read as large ones
  const cut =
    low > 0
      ? `<path class="axis-break" d="M${plot.left - 5} ${plot.bottom - 4}l5 -3l5 3M${plot.left - 5} ${plot.bottom - 8}l5 -3l5 3" fill="none" stroke="#6b7280" stroke-width="1.5"><title>the axis starts at ${low.toLocaleString("en-US")}, not at 0</title></path>`
      : "";
  let keys = "";
  if (legend) {
    let left = plot.left;
    keys = series
      .map((s, i) => {
        const key = `<rect x="${left}" y="${MARGIN.top - 1}" width="10" height="10" fill="${escapeXml(colorOf(s, i))}"/><text x="${left + 14}" y="${MARGIN.top + 8}" fill="#111827" ${FONT}>${escapeXml(s.name)}</text>`;
        // an approximate advance: legends are short names, and a long one only pushes the next to the right
        left += 14 + Math.ceil(s.name.length * 6.6) + 16;
        return key;
      })
      .join("");
  }
  return `${open}${frame}${grid}${cut}${xLabels}${keys}${lines}${dots}</svg>`;
}
