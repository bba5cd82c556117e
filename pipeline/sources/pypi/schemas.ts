// zod schema of PyPI's project JSON (/pypi/<name>/json): only what raw_pypi_projects needs, tolerant of
// the fields PyPI added over the years (license_expression, license_files, vulnerabilities, …).
import { z } from "zod";

export const pypiFileSchema = z.object({
  upload_time_iso_8601: z.iso.datetime({ offset: true }).nullable().optional(),
  /** Older answers: "2012-01-22T05:08:17" in UTC without a zone. */
  upload_time: z.string().nullable().optional(),
  yanked: z.boolean().optional(),
});

export const pypiProjectSchema = z.object({
  info: z.object({
    name: z.string(),
    version: z.string(),
    summary: z.string().nullable().optional(),
    license: z.string().nullable().optional(),
    license_expression: z.string().nullable().optional(),
    home_page: z.string().nullable().optional(),
    project_urls: z.record(z.string(), z.string().nullable()).nullable().optional(),
    requires_dist: z.array(z.string()).nullable().optional(),
  }),
  releases: z.record(z.string(), z.array(pypiFileSchema)),
});

export type PypiFile = z.infer<typeof pypiFileSchema>;
export type PypiProject = z.infer<typeof pypiProjectSchema>;
