// The orientation documents of the API (the data of GET /api/v1/status, /tables and /workflows): what the release
// holds and how fresh it is, the public database a POST /api/v1/query reads, and the ready-made SQL recipes for it.
import { z } from "zod";
import { domainSchema } from "./enums.ts";
import { countSchema } from "./fields.ts";

const daySchema = z.iso.date();

/**
 * What a release holds from a data source: `fresh`, rows from the run date itself; `behind`, its last rows are from
 * an earlier night (it failed since and keeps them); `absent`, the warehouse holds no row from it up to the run date:
 * it was not collected for this release (a release built from a list's history has no Hacker News, arXiv or Hugging
 * Face rows), so its figures are unknown, not 0.
 */
export const SOURCE_STATES = ["fresh", "behind", "absent"] as const;
export const sourceStateSchema = z
  .enum(SOURCE_STATES)
  .describe(
    "fresh: delivered on the run date; behind: its last delivery is older (it keeps that data); absent: no row from it on record up to the run date (not collected for this release; its figures are unknown, not 0)",
  );
export type SourceState = z.infer<typeof sourceStateSchema>;

export const statusSchema = z
  .strictObject({
    run_date: daySchema.describe("The night the data is from (UTC)"),
    release_id: z.string().min(1).describe("Id of the release serving this response"),
    repositories: countSchema.describe("Tracked repositories: the rows of the projects table"),
    tables: z
      .array(
        z.strictObject({
          name: z.string().min(1).describe("Table name, as POST /api/v1/query reads it"),
          rows: countSchema.describe("Rows in the table tonight"),
        }),
      )
      .describe("The public tables (GET /api/v1/tables has their columns)"),
    domains: z
      .array(
        z.strictObject({
          domain: domainSchema,
          repositories: countSchema.describe("Tracked repositories classified in the domain"),
        }),
      )
      .describe("Every supported domain, most repositories first, then by name; 0 for a domain with none"),
    sources: z
      .array(
        z
          .strictObject({
            source: z.string().min(1).describe("Data source (connector) name"),
            state: sourceStateSchema,
            latest_run_date: daySchema
              .nullable()
              .describe("Latest night with rows from the source; null when absent (it never delivered any)"),
            rows: countSchema
              .nullable()
              .describe("Rows the source delivered that night; null when absent (no night to count, not 0)"),
            fresh: z.boolean().describe("Whether the source delivered on the run date itself"),
            days_behind: z
              .int()
              .min(0)
              .nullable()
              .describe("Nights between its latest delivery and the run date; null when absent"),
          })
          .superRefine((s, ctx) => {
            // the state and the figures say the same: absent has no night nor rows, the others have both
            const absent = s.latest_run_date === null;
            const state = absent ? "absent" : s.fresh ? "fresh" : "behind";
            if (s.state !== state || absent !== (s.rows === null) || absent !== (s.days_behind === null)) {
              ctx.addIssue({
                code: "custom",
                path: ["state"],
                message: `source ${s.source}: state ${s.state} does not match its figures (${state})`,
              });
            }
          }),
      )
      .describe(
        "Freshness of each data source, by name; a source that failed keeps its last data, and one never collected for this release is listed as absent",
      ),
    stale_packages: z
      .array(
        z.strictObject({
          registry: z.string().min(1).describe("Package registry: pypi, npm, docker or huggingface"),
          packages: countSchema.describe("Packages linked to tracked repositories"),
          stale: countSchema.describe("Of those, packages whose latest data is older than the stale limit"),
          stale_share: z.number().min(0).max(1).describe("stale / packages, rounded to 4 decimals"),
        }),
      )
      .describe("Per registry, how much of its package data is stale"),
  })
  .describe("Orientation: what this release holds and how fresh each source is");

const columnSchema = z.strictObject({
  name: z.string().min(1).describe("Column name"),
  type: z.string().min(1).describe("DuckDB type of the column"),
  description: z.string().min(1).nullable().describe("What the column holds; null when undocumented"),
});

export const publicTablesSchema = z
  .strictObject({
    run_date: daySchema.describe("The night the tables hold"),
    how_to_query: z.string().min(1).describe("How to run SQL over these tables"),
    tables: z
      .array(
        z.strictObject({
          name: z.string().min(1).describe("Table name"),
          description: z.string().min(1).describe("What one row of the table is"),
          rows: countSchema.describe("Rows in the table tonight"),
          columns: z.array(columnSchema).describe("The table's columns, in table order"),
        }),
      )
      .describe("Every table of the public database, in the documented order"),
  })
  .describe("The public database's tables, row counts and columns");

export const workflowsSchema = z
  .strictObject({
    how_to_run: z.string().min(1).describe("How to run a recipe"),
    workflows: z
      .array(
        z.strictObject({
          name: z.string().min(1).describe("Recipe name (kebab-case)"),
          title: z.string().min(1).describe("One-line title"),
          description: z.string().min(1).describe("What the recipe answers"),
          parameters: z
            .array(
              z.strictObject({
                name: z.string().min(1).describe("Parameter name"),
                default: z.string().min(1).describe("The value bound when none is given"),
                description: z.string().min(1).describe("What the value names"),
              }),
            )
            .describe(
              "The recipe's parameters in placeholder order: the first is $1 in the SQL; empty when none",
            ),
          parameter_notes: z
            .string()
            .min(1)
            .nullable()
            .describe("How to pass the parameters; null when the recipe has none"),
          sql: z.string().min(1).describe("The SQL text: one read-only SELECT over the public tables"),
          example_request: z
            .strictObject({
              sql: z.string().min(1).describe("The recipe's SQL"),
              params: z
                .array(z.string())
                .optional()
                .describe("The parameters' defaults, in placeholder order; absent when the recipe has none"),
            })
            .describe("A body for POST /api/v1/query that runs the recipe with its defaults"),
        }),
      )
      .describe("Every recipe, by name"),
  })
  .describe("Ready-made SQL recipes for POST /api/v1/query");

export type StatusDocument = z.infer<typeof statusSchema>;
export type PublicTablesDocument = z.infer<typeof publicTablesSchema>;
export type WorkflowsDocument = z.infer<typeof workflowsSchema>;
