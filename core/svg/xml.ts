// Escaping text for SVG and HTML, and formatting coordinates: the pieces every drawing function shares.

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text made safe inside an element or a quoted attribute of SVG or HTML. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** A coordinate with at most one decimal and no trailing zero: short, and the same bytes for the same input. */
export function coord(n: number): string {
  const rounded = Math.round(n * 10) / 10;
  return Object.is(rounded, -0) ? "0" : String(rounded);
}
