// The HTML pages of a release (/ and /docs) share one frame: inline styles only, no scripts, an empty favicon so a
// browser asks the API for nothing it lacks.
const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#fff}
header,footer{padding:1rem 2rem;background:#f4f6fa;border-bottom:1px solid #dde2ec}
h1 small{font-size:.55em;color:#5b6478;font-weight:normal}
.layout{display:flex;align-items:flex-start}
nav{position:sticky;top:0;max-height:100vh;overflow:auto;min-width:19rem;padding:1rem;border-right:1px solid #dde2ec;font-size:13px}
nav ul{list-style:none;padding-left:.8rem;margin:.2rem 0}
main{padding:0 2rem 3rem;max-width:72rem}
article{border-top:1px solid #dde2ec;padding:.5rem 0 1rem}
.method{display:inline-block;min-width:3.5rem;padding:0 .4rem;border-radius:4px;background:#1f6feb;color:#fff;font-size:.8em;text-align:center}
table{border-collapse:collapse;margin:.5rem 0;font-size:13px}
th,td{border:1px solid #dde2ec;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f6fa}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.92em}
.rules{color:#5b6478}
a{color:#0b57d0}
`;

/** The media type of every HTML page the service serves. */
export const HTML_TYPE = "text/html; charset=utf-8";

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A page in the shared frame; `style` adds rules of its own (the pages for people: charts, bars). */
export function page(title: string, body: string, style = ""): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><style>${STYLE}${style}</style></head>
<body>${body}</body></html>
`;
}
