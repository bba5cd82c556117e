// The scoring methodology document (the data of GET /api/v1/methodology): components with their inputs, caps and
// constants, tiers, lifecycle stages, domains, slugs and data sources, plus the same text as Markdown. The
// document itself is generated from the constants (pipeline/methodology-doc.ts); this is its public shape.
import { z } from "zod";
import { domainSchema, lifecycleStageSchema, qualityTierSchema, stackLayerSchema } from "./enums.ts";
import { SCORE_COMPONENTS } from "./fields.ts";

const text = (what: string) => z.string().min(1).describe(what);

const constantSchema = z
  .strictObject({
    name: text("Constant name, as the SQL reads it (getvariable)"),
    value: z.number().describe("Its value"),
    doc: text("What it means"),
  })
  .describe("A named constant of the methodology");
const constantsSchema = z.array(constantSchema).describe("The constants of this part, in document order");

export const methodologySchema = z
  .strictObject({
    version: text("Methodology version; changes when the rules change"),
    fingerprint: z
      .string()
      .regex(/^[0-9a-f]{12}$/)
      .describe("Identifies the exact constants: changes whenever any name or value does"),
    score: z
      .strictObject({
        range: z.tuple([z.int(), z.int()]).describe("Lowest and highest quality_score"),
        component_max: z.int().min(1).describe("Highest points of one component"),
        scales: z.array(z.string()).describe("How inputs become points"),
      })
      .describe("How the score is built"),
    components: z
      .array(
        z.strictObject({
          name: z.enum(SCORE_COMPONENTS).describe("Component name"),
          max_points: z.int().min(1).describe("Highest points of the component"),
          summary: text("What the component measures"),
          inputs: z
            .array(
              z.strictObject({
                input: text("Input name, as a project's score explanation lists it"),
                max_points: z.int().min(0).describe("Highest points the input earns"),
                max_constant: text("The constant holding that cap"),
              }),
            )
            .describe("The inputs, in explanation order"),
          constants: constantsSchema,
        }),
      )
      .describe("The four score components"),
    tiers: z
      .strictObject({
        ranges: z
          .array(
            z.strictObject({
              tier: qualityTierSchema,
              min: z.int().min(0).describe("Lowest quality_score of the tier"),
              max: z.int().min(0).describe("Highest quality_score of the tier"),
            }),
          )
          .describe("Score range of each tier, best first"),
        constants: constantsSchema,
      })
      .describe("Quality tiers"),
    finished_project: text("When a quiet repository counts as finished rather than abandoned"),
    missing_inputs: z
      .array(
        z.strictObject({
          input: text("An input that may be unknown"),
          treatment: text("How it is scored then"),
        }),
      )
      .describe("How unknown inputs are scored"),
    explanation: text("What each project's score explanation holds"),
    slug: text("How a project's slug is derived"),
    signals: z
      .array(
        z.strictObject({
          component: text("Signal: freshness, trend, momentum, hype, lifecycle or datasets"),
          constants: constantsSchema,
        }),
      )
      .describe("Signals computed beside the score; they do not change quality_score"),
    lifecycle: z
      .strictObject({
        order: z
          .array(lifecycleStageSchema)
          .describe("The order stages are tested in; the first that holds wins"),
        hysteresis: text("How a stage is entered and kept"),
        stages: z
          .array(
            z.strictObject({
              stage: lifecycleStageSchema,
              rule: text("When a repository is in this stage, thresholds filled in"),
              constants: z
                .array(z.string().min(1))
                .describe("Names of the lifecycle constants the rule reads"),
            }),
          )
          .describe("Each stage's rule, in test order"),
      })
      .describe("Lifecycle stages and their thresholds"),
    list_history: z
      .strictObject({
        summary: text("What replaying a list's dated history runs"),
        rules: z
          .array(z.string().min(1))
          .describe("Real cadence, renames, leaving and returning: the rules a replayed history follows"),
      })
      .describe("Replaying a list's history (projintel rate FILE --history)"),
    taxonomy: z
      .strictObject({
        classification: text("How a repository gets its domain, subcategory and stack layer"),
        fallback: z
          .strictObject({ domain: domainSchema, stack_layer: stackLayerSchema })
          .describe("What a repository no rule claims gets"),
        domains: z
          .array(
            z.strictObject({
              domain: domainSchema,
              stack_layer: stackLayerSchema.describe("Default stack layer of the domain"),
              subcategories: z
                .array(
                  z.strictObject({
                    name: text("Subcategory (the category parameter of list endpoints)"),
                    stack_layer: stackLayerSchema.describe("Stack layer of the subcategory's projects"),
                  }),
                )
                .describe("Subcategories of the domain"),
            }),
          )
          .describe("Every supported domain, in the spec's order"),
      })
      .describe("Domains, subcategories and stack layers"),
    sources: z
      .array(
        z.strictObject({
          name: text("Source (connector) name, as GET /api/v1/status reports its freshness"),
          description: text("What the source brings"),
          raw_tables: z.array(z.string().min(1)).describe("Warehouse tables the source fills"),
        }),
      )
      .describe("Data sources, in the order they are collected each night"),
    query_limits: z
      .strictObject({
        rules: text("The limits and statement rules of POST /api/v1/query, in words"),
        deadline_ms: z
          .int()
          .min(1)
          .describe("Wall time a query has from its arrival, queueing included, in ms"),
        max_rows: z.int().min(1).describe("Rows returned at most (more set meta.truncated)"),
        max_bytes: z
          .int()
          .min(1)
          .describe("Bytes of rows as JSON returned at most (more set meta.truncated)"),
        max_params: z.int().min(0).describe("Positional parameters a query may take"),
        workers: z.int().min(1).describe("Worker processes, so queries running at once on the server"),
        per_caller: z.int().min(1).describe("Queries one caller may have running or waiting at once"),
        per_address: z
          .int()
          .min(1)
          .describe("Queries one client address may have running or waiting at once, over all its keys"),
        max_queued: z.int().min(0).describe("Queries the server holds waiting for a worker"),
        duckdb_memory: text("DuckDB's memory limit in a worker"),
        worker_memory_mib: z
          .int()
          .min(1)
          .describe("Resident memory of a worker over which it is killed, in MiB"),
      })
      .describe("Limits of the SQL query endpoint"),
    reality_check: z
      .strictObject({
        list: z
          .strictObject({
            name: text("The public list"),
            source: text("Where its figures come from"),
            license: text("The list's licence"),
            as_of: text("The day the list recorded the figures (YYYY-MM-DD)"),
          })
          .describe("The real projects the score is checked on"),
        projects: z.int().min(0).describe("Projects of the list rated"),
        measured_at: text("The day the check was measured (YYYY-MM-DD)"),
        summary: text("What was rated and how, in words"),
        figures: z
          .array(
            z.strictObject({
              figure: text("What is measured"),
              value: text("What was measured"),
              bar: text("What the check requires"),
            }),
          )
          .describe("Each figure of the check with its bar"),
        tiers: z
          .array(
            z
              .object({
                tier: qualityTierSchema,
                real_list: z.number().min(0).max(1).describe("Share of the real list's projects in the tier"),
              })
              .catchall(
                z.number().min(0).max(1).describe("Share of a simulated world's projects in the tier"),
              )
              .describe("A tier's share on the real list and on each simulated world (by world name)"),
          )
          .describe("Tier shares, real list beside the simulated worlds"),
        worlds: z.record(z.string(), z.int().min(0)).describe("Projects of each simulated world compared"),
      })
      .describe(
        "The score on real projects: a public list's figures rated and checked against its judgements",
      ),
    backtest: z
      .strictObject({
        list: z
          .strictObject({
            name: text("The public list"),
            source: text("Where its history comes from"),
            license: text("The list's licence"),
          })
          .describe("The real list whose dated history is replayed"),
        dates: z
          .strictObject({
            first: text("The first date replayed (YYYY-MM-DD)"),
            last: text("The last date replayed (YYYY-MM-DD)"),
            count: z.int().min(0).describe("Dates replayed, each as a night"),
          })
          .describe("The dates the list recorded"),
        projects: z.int().min(0).describe("Projects replayed (a renamed project once)"),
        rows: z.int().min(0).describe("Rows replayed: one per project and date"),
        measured_at: text("The day the backtest was measured (YYYY-MM-DD)"),
        summary: text("What was replayed and compared, in words"),
        figures: z
          .array(
            z.strictObject({
              figure: text("What is measured"),
              value: text("What was measured, with its counts"),
              naive: text("The naive rule computed from the same rows, and what it measured"),
              bar: text("The target"),
            }),
          )
          .describe("Each figure of the backtest beside its naive baseline and target"),
        replay: text("The replay's time and memory"),
      })
      .describe(
        "The lifecycle stages on real history: a public list's dated history replayed and each stage compared with what happened next",
      ),
    changelog: z
      .array(
        z.strictObject({
          version: text("Methodology version"),
          changes: z.array(z.string().min(1)).describe("What changed in it, rule by rule"),
          score_diff: z
            .string()
            .min(1)
            .nullable()
            .describe(
              "How it moved the reality list's projects (npm run bench -- scdiff); null until measured",
            ),
        }),
      )
      .describe("What changed in the methodology, newest version first"),
    markdown: text("The whole document as Markdown (as docs/methodology.md)"),
  })
  .describe("Scoring methodology, generated from the constants the pipeline runs with");

export type MethodologyResponse = z.infer<typeof methodologySchema>;
