// The subcategories of each domain, as data/taxonomy.json (the classifier's rules) names them: the values a
// subcategory or category parameter may take, so an unknown one is refused by name rather than answered with no data.
import { readFileSync } from "node:fs";
import { z } from "zod";
import { DOMAINS, type Domain } from "./enums.ts";

const taxonomySchema = z.object({
  domains: z.array(
    z.object({
      slug: z.enum(DOMAINS),
      subcategories: z.array(z.object({ name: z.string().min(1) })).default([]),
    }),
  ),
});

const taxonomy = taxonomySchema.parse(
  JSON.parse(readFileSync(new URL("../data/taxonomy.json", import.meta.url), "utf8")),
);

/** Each domain's subcategories, in the taxonomy's order. */
export const SUBCATEGORIES_BY_DOMAIN = Object.fromEntries(
  DOMAINS.map((domain) => [
    domain,
    taxonomy.domains.find((d) => d.slug === domain)?.subcategories.map((s) => s.name) ?? [],
  ]),
) as unknown as Readonly<Record<Domain, readonly string[]>>;

/** Every subcategory of every domain, sorted. */
export const SUBCATEGORIES: readonly string[] = Object.values(SUBCATEGORIES_BY_DOMAIN).flat().sort();

/** The domain a subcategory belongs to. */
export function domainOfSubcategory(name: string): Domain | undefined {
  return DOMAINS.find((domain) => SUBCATEGORIES_BY_DOMAIN[domain].includes(name));
}

/** Up to `count` subcategories closest to `text` by edit distance (at most a third of its length apart). */
export function closestSubcategories(text: string, count = 3): string[] {
  const bound = Math.max(2, Math.floor(text.length / 3));
  return SUBCATEGORIES.map((name) => ({ name, distance: editDistance(text.toLowerCase(), name) }))
    .filter((c) => c.distance <= bound)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, count)
    .map((c) => c.name);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
