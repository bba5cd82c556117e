// A sparkline: a small line of a series' shape with no axes, gaps where values are null and a dot on the last
// known value — for tables that show a trend per row. Scaled to its own values, or to a range the table's rows share
// (so a flat row reads flat beside a rising one).
import { coord, escapeXml } from "./xml.ts";

export interface SparklineOptions {
  /** What the line shows, for its <title>. */
  title: string;
  width?: number;
  height?: number;
  color?: string;
  /** The values at the bottom and top edges, shared by the rows of a table; by default the series' own extremes. */
  range?: { low: number; high: number };
}

/** The sparkline as SVG text; a series without two known values draws only its frame and title. */
export function renderSparkline(values: readonly (number | null)[], options: SparklineOptions): string {
  const width = options.width ?? 100;
  const height = options.height ?? 24;
  const color = escapeXml(options.color ?? "#0072b2");
  const title = escapeXml(options.title);
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${title}"><title>${title}</title>`;
  const known = values.filter((v): v is number => v !== null);
  if (known.length < 2) return `${open}</svg>`;
  const low = options.range?.low ?? Math.min(...known);
  const high = options.range?.high ?? Math.max(...known);
  const pad = 2;
  const x = (i: number) => pad + (i / (values.length - 1)) * (width - 2 * pad);
  // a flat series draws along the middle rather than on an edge
  const y = (v: number) =>
    high === low ? height / 2 : height - pad - ((v - low) / (high - low)) * (height - 2 * pad);
  let d = "";
  let inRun = false;
  let last = -1;
  values.forEach((v, i) => {
    if (v === null) {
      inRun = false;
      return;
    }
    d += `${inRun ? "L" : "M"}${coord(x(i))} ${coord(y(v))}`;
    inRun = true;
    last = i;
  });
  const lastValue = values[last] as number;
  return `${open}<path d="${d}" fill="none" stroke="${color}" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round"/><circle cx="${coord(x(last))}" cy="${coord(y(lastValue))}" r="2" fill="${color}"/></svg>`;
}
