// An error of a page for people (/p/…, /d/…, /compare) as a page rather than JSON: a person who follows a link to a
// repository not tracked reads why in the frame of the other pages, with links onward. Same status as the JSON
// envelope, no scripts. Pure: drawn by the shim's error handler (api-shim/http/error-page.ts).
import type { ErrorCode } from "../schemas/index.ts";
import { escapeHtml, page } from "./html.ts";
import { PAGE_STYLE } from "./pages.ts";

/** A link an error page offers onward. */
export interface PageLink {
  href: string;
  text: string;
}

/** The heading of an error page, by the error's code; any other code is "Something went wrong". */
const HEADINGS: Partial<Record<ErrorCode, string>> = {
  not_found: "Not found",
  invalid_domain: "No such domain",
  invalid_parameter: "Not a valid address",
  missing_parameter: "Not a valid address",
  rate_limit_exceeded: "Too many requests",
  unavailable: "Not available just now",
};

/** Where every error page points: the home page and the API's documentation. */
const ALWAYS: readonly PageLink[] = [
  { href: "/", text: "Home" },
  { href: "/docs", text: "The API and its documentation" },
];

export interface ErrorPageInput {
  status: number;
  code: ErrorCode;
  /** The error's message, as the JSON envelope gives it. */
  message: string;
  /** Links for this error first (a search for the name asked, the domains), then home and the docs. */
  links?: readonly PageLink[];
}

export function renderErrorPage(error: ErrorPageInput): string {
  const heading = HEADINGS[error.code] ?? "Something went wrong";
  const links = [...(error.links ?? []), ...ALWAYS]
    .map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.text)}</a></li>`)
    .join("");
  const body = `<header><h1>${escapeHtml(heading)} <small>${error.status}</small></h1></header>
<main class="page">
<p>${escapeHtml(error.message)}</p>
<ul>${links}</ul>
</main>`;
  return page(`${heading} (${error.status})`, body, PAGE_STYLE);
}
