// arXiv identifiers: finding them in text (abs/pdf links, "arXiv:" mentions, Hub tags) and normalising
// them to the versionless form the API's id_list takes. Anything else would make arXiv answer 400.

/** New-style (0704.0001 … 2412.12345) and old-style (hep-th/9901001, math.CO/0601001) ids, version optional. */
const ID = String.raw`(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?\/\d{7})(?:v\d+)?`;
const FULL = new RegExp(`^${ID}$`);
const IN_TEXT = new RegExp(String.raw`(?:arxiv\.org\/(?:abs|pdf)\/|arxiv:\s*)(${ID})`, "gi");

/** The id without its version suffix, or undefined when it is not an arXiv id. */
export function normalizeArxivId(id: string): string | undefined {
  const trimmed = id.trim().replace(/\.pdf$/, "");
  return FULL.test(trimmed) ? trimmed.replace(/v\d+$/, "") : undefined;
}

/** Every arXiv id a text mentions as a link or "arXiv:<id>", versionless, sorted. */
export function arxivIdsIn(text: string | null): string[] {
  const ids = [...(text ?? "").matchAll(IN_TEXT)].flatMap((m) => normalizeArxivId(m[1] as string) ?? []);
  return [...new Set(ids)].sort();
}

/** The versionless id and the version of an entry id such as http://arxiv.org/abs/2101.05225v1. */
export function entryId(url: string): { id: string; version: number | null } {
  const match = /\/abs\/(.+?)(?:v(\d+))?$/.exec(url);
  if (!match) return { id: url, version: null };
  return { id: match[1] as string, version: match[2] === undefined ? null : Number(match[2]) };
}
