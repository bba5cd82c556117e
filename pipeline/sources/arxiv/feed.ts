// The arXiv Atom feed as plain objects checked by zod: entries of the 2022 format (http ids, typed titles,
// opensearch declared per element) and the 2026 backend (https links, namespaces on the root) alike.
// An entry titled "Error" is arXiv's way to report a bad query; it comes back as `error`.
import { z } from "zod";
import { parseXml, type XmlElement } from "./xml.ts";

const ATOM = "http://www.w3.org/2005/Atom";
const ARXIV = "http://arxiv.org/schemas/atom";
const OPENSEARCH = "http://a9.com/-/spec/opensearch/1.1/";

export const entrySchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  summary: z.string(),
  published: z.iso.datetime({ offset: true }),
  updated: z.iso.datetime({ offset: true }),
  authors: z.array(z.string()),
  primaryCategory: z.string().nullable(),
  categories: z.array(z.string()),
  links: z.array(z.object({ href: z.string(), rel: z.string().nullable(), title: z.string().nullable() })),
  comment: z.string().nullable(),
  doi: z.string().nullable(),
});

export const feedSchema = z.object({
  totalResults: z.number().int().nonnegative().nullable(),
  entries: z.array(entrySchema),
});

export type ArxivEntry = z.infer<typeof entrySchema>;
export type ArxivFeed = z.infer<typeof feedSchema>;
export type FeedReading = { kind: "feed"; feed: ArxivFeed } | { kind: "error"; message: string; id: string };

const all = (el: XmlElement, ns: string, local: string) =>
  el.children.filter((c) => c.ns === ns && c.local === local);
const first = (el: XmlElement, ns: string, local: string) => all(el, ns, local)[0];
/** Titles and summaries wrap lines and indent; one space between words is what a reader sees. */
const squash = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

function entryObject(entry: XmlElement): Record<string, unknown> {
  const text = (ns: string, local: string) => first(entry, ns, local)?.text.trim() ?? null;
  return {
    id: text(ATOM, "id"),
    title: squash(first(entry, ATOM, "title")?.text),
    summary: squash(first(entry, ATOM, "summary")?.text),
    published: text(ATOM, "published"),
    updated: text(ATOM, "updated"),
    authors: all(entry, ATOM, "author").map((a) => squash(first(a, ATOM, "name")?.text)),
    primaryCategory: first(entry, ARXIV, "primary_category")?.attrs.term ?? null,
    categories: all(entry, ATOM, "category").flatMap((c) => c.attrs.term ?? []),
    links: all(entry, ATOM, "link").map((l) => ({
      href: l.attrs.href,
      rel: l.attrs.rel ?? null,
      title: l.attrs.title ?? null,
    })),
    comment: text(ARXIV, "comment"),
    doi: text(ARXIV, "doi"),
  };
}

/** A problem found before zod could look (malformed XML, not a feed), as a one-issue ZodError. */
const invalid = (message: string) => ({
  kind: "invalid" as const,
  error: new z.ZodError([{ code: "custom", path: [], message, input: undefined }]),
});

/**
 * Reads a feed body. A body that is not a well-formed Atom feed, or whose entries do not fit entrySchema,
 * comes back `invalid` with a ZodError, so the caller quarantines it with its URL like any malformed payload.
 */
export function readFeed(xml: string): FeedReading | { kind: "invalid"; error: z.ZodError } {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (error) {
    return invalid((error as Error).message);
  }
  if (root.ns !== ATOM || root.local !== "feed")
    return invalid(`expected an Atom <feed>, got <${root.local}>`);
  const entries = all(root, ATOM, "entry");
  const failed = entries.find((e) => first(e, ATOM, "title")?.text.trim() === "Error");
  if (failed) {
    return {
      kind: "error",
      message: squash(first(failed, ATOM, "summary")?.text),
      id: first(failed, ATOM, "id")?.text.trim() ?? "",
    };
  }
  const total = first(root, OPENSEARCH, "totalResults")?.text.trim();
  const parsed = feedSchema.safeParse({
    totalResults: total === undefined ? null : Number(total),
    entries: entries.map(entryObject),
  });
  return parsed.success ? { kind: "feed", feed: parsed.data } : { kind: "invalid", error: parsed.error };
}
