// What a model card links to: arXiv ids (the Hub's `arxiv:<id>` tags), the licence tag, and GitHub
// repositories named anywhere in cardData (e.g. `repo`, `github`, links in model-index sources).
import { githubRepoOf } from "../pypi/names.ts";
import type { ModelInfo } from "./schemas.ts";

/** arXiv ids from `arxiv:` tags, sorted, without duplicates. */
export function arxivIdsOf(tags: readonly string[]): string[] {
  return [...new Set(tags.filter((t) => t.startsWith("arxiv:")).map((t) => t.slice("arxiv:".length)))].sort();
}

export function licenseOf(tags: readonly string[]): string | null {
  return tags.find((t) => t.startsWith("license:"))?.slice("license:".length) ?? null;
}

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/** Every GitHub repository (lower-cased owner/name) a text links to, sorted. */
export function githubReposIn(texts: readonly string[]): string[] {
  const found = texts.flatMap((s) =>
    [...s.matchAll(/(?:https?:\/\/)?(?:www\.)?github\.com\/[^\s)"'<>\]]+/gi)].flatMap(
      (m) => githubRepoOf(m[0]) ?? [],
    ),
  );
  return [...new Set(found)].sort();
}

/** Every GitHub repository (lower-cased owner/name) mentioned in the card data, sorted. */
export function githubReposOf(model: Pick<ModelInfo, "cardData">): string[] {
  return githubReposIn(strings(model.cardData ?? {}));
}

/** The model id a redirect's Location names (the Hub answers a legacy id with 307 to /api/models/<id>). */
export function modelIdOfLocation(location: string): string | undefined {
  const match = /\/api\/models\/([^?#]+)$/.exec(new URL(location, "https://huggingface.co").pathname);
  return match ? decodeURIComponent(match[1] as string) : undefined;
}
