// zod schema of Docker Hub's repository answer (/v2/repositories/<namespace>/<name>): only what
// raw_dockerhub_repos needs. Older answers lack last_modified, categories, storage_size and source.
import { z } from "zod";

export const dockerRepositorySchema = z.object({
  namespace: z.string(),
  name: z.string(),
  description: z.string().nullable().optional(),
  pull_count: z.number().int().nonnegative(),
  star_count: z.number().int().nonnegative(),
  last_updated: z.string().nullable().optional(),
  last_modified: z.string().nullable().optional(),
  date_registered: z.string().nullable().optional(),
  status_description: z.string().nullable().optional(),
  storage_size: z.number().nullable().optional(),
});

export type DockerRepository = z.infer<typeof dockerRepositorySchema>;
