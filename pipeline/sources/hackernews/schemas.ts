// zod schema of Hacker News search on Algolia (/api/v1/search_by_date): only what raw_hn_posts needs.
// Stories without a link (Ask HN) have url null; deleted or flagged ones may lack points or title.
import { z } from "zod";

export const hitSchema = z.object({
  objectID: z.string(),
  title: z.string().nullable().optional(),
  url: z.string().nullable().optional(),
  author: z.string().nullable().optional(),
  points: z.number().int().nullable().optional(),
  num_comments: z.number().int().nullable().optional(),
  created_at: z.string(),
  created_at_i: z.number().int(),
});

export const searchSchema = z.object({
  hits: z.array(hitSchema),
  nbHits: z.number().int().nonnegative(),
  page: z.number().int().nonnegative(),
  nbPages: z.number().int().nonnegative(),
  hitsPerPage: z.number().int().positive(),
});

export type Hit = z.infer<typeof hitSchema>;
export type SearchPage = z.infer<typeof searchSchema>;
