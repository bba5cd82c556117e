// zod schemas of the Hugging Face Hub model API: the list by author (/api/models?author=<owner>) and model
// info (/api/models/<id>). Only what raw_hf_models needs; cardData is free-form YAML front matter.
import { z } from "zod";

/** One entry of the list: the id is all we rely on (the list omits lastModified and cardData). */
export const modelListSchema = z.array(z.object({ id: z.string() }));

export const modelInfoSchema = z.object({
  id: z.string(),
  author: z.string().nullable().optional(),
  downloads: z.number().int().nonnegative().optional(),
  likes: z.number().int().nonnegative().optional(),
  tags: z.array(z.string()).optional(),
  pipeline_tag: z.string().nullable().optional(),
  library_name: z.string().nullable().optional(),
  lastModified: z.string().nullable().optional(),
  createdAt: z.string().nullable().optional(),
  private: z.boolean().optional(),
  // false, or "auto" / "manual" for gated models.
  gated: z.union([z.boolean(), z.string()]).optional(),
  cardData: z.record(z.string(), z.unknown()).nullable().optional(),
});

export type ModelInfo = z.infer<typeof modelInfoSchema>;
