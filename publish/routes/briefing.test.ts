// GET /api/v1/briefings/{slug} over a release of the simulated world: every listed briefing in full, checked against
// ds_briefings by plain SQL and its facts against projects and transitions; the example the release records for
// the docs; 404 for an unknown or quiet week, 422 for a malformed slug.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage } from "../../core/storage.ts";
import { briefingDetailSchema } from "../../schemas/index.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";
import { readManifest, readPointer } from "../layout.ts";

let sim: SimApp;

beforeAll(async () => {
  sim = await sharedSimApp();
}, 600_000);
afterAll(() => sim?.close());

describe("GET /api/v1/briefings/{slug}", () => {
  it("answers every briefing of the list in full, as ds_briefings holds it", async () => {
    const rows = await sim.db.all<{ slug: string; json: string }>(
      `SELECT slug, to_json({
         slug: slug, domain: domain, week: week, title: title, summary: summary,
         published: strftime(date, '%Y-%m-%d'), body: body, days: days, faded_days: faded_days,
         counts: {projects_tracked: projects_tracked, stars_total: stars_total, rose: rose, shipped: shipped,
           entered: entered, moved: moved, faded: faded},
         movers: movers, entrants: entrants, transitions: transitions, releases: releases, projects: projects
       })::VARCHAR AS json
       FROM ds_briefings WHERE NOT is_quiet ORDER BY domain`,
    );
    expect(rows).toHaveLength(27);
    for (const row of rows) {
      const { status, body } = await sim.get(`/api/v1/briefings/${row.slug}`);
      expect(status).toBe(200);
      expect(body.data).toEqual(JSON.parse(row.json));
      expect(body.meta.query).toEqual({ slug: row.slug });
      expect(briefingDetailSchema.safeParse(body.data).success).toBe(true);
    }
  });

  it("carries the facts its text is written from: movers' numbers, entrants, stage changes", async () => {
    const { body } = await sim.get("/api/v1/briefings/transformers-2026-w47");
    const movers = await sim.db.all<{ full_name: string; stars: number; delta: number; momentum: number }>(
      `SELECT full_name, stars, stars_7d_delta::INTEGER AS delta, momentum FROM projects
       WHERE domain = 'transformers' AND stars_7d_delta > 0 ORDER BY stars_7d_delta DESC, stars DESC, full_name`,
    );
    const entrants = await sim.db.all<{ full_name: string }>(
      `SELECT full_name FROM projects WHERE domain = 'transformers' AND first_seen = $1::DATE`,
      [sim.runDate],
    );
    const changes = await sim.db.all<{ full_name: string; from_stage: string; to_stage: string }>(
      `SELECT t.full_name, t.from_stage, t.to_stage FROM transitions t JOIN projects p USING (node_id)
       WHERE p.domain = 'transformers' AND t.from_stage IS NOT NULL AND t.date = $1::DATE`,
      [sim.runDate],
    );
    expect(body.data).toMatchObject({
      slug: "transformers-2026-w47",
      domain: "transformers",
      week: "2026-w47",
      published: "2026-11-20",
      title: "transformers: gokardi-ai/MalurGpt leads the week",
      counts: { projects_tracked: 14, rose: 2, shipped: 1, entered: 1, moved: 0, faded: 0 },
      movers: movers.map((m) => ({
        full_name: m.full_name,
        stars: m.stars,
        stars_7d_delta: m.delta,
        momentum: m.momentum,
      })),
      entrants: entrants.map((e) => ({ full_name: e.full_name, first_seen: "2026-11-20" })),
      transitions: changes.map((c) => ({ ...c, date: "2026-11-20" })),
      releases: [{ full_name: "rinulka/siren", version: "v0.0.1", source: "github", date: "2026-11-16" }],
    });
    expect(changes).toEqual([]);
    expect(body.data.body).toEqual([
      "What rose: gokardi-ai/MalurGpt (+43 stars to 875) and lonultiworks/bepekgpt (+22 stars to 179).",
      "What shipped: rinulka/siren v0.0.1.",
      "New: rinulka/siren (945 stars, emerging).",
      "In numbers: 14 projects tracked with 3,373 stars; in 7 days 2 projects gained stars, 1 release shipped, 1 project entered tracking and 0 projects changed stage; 0 projects faded in 30 days.",
    ]);
    // the week's one stage change is in document-ai
    const moved = await sim.get("/api/v1/briefings/document-ai-2026-w47");
    expect(moved.body.data.transitions).toMatchObject([
      { full_name: "vunolte/kimox-doc", date: "2026-11-15", from_stage: "emerging", to_stage: "launching" },
    ]);
    expect(moved.body.data.body[1]).toBe("What moved: vunolte/kimox-doc turned launching (was emerging).");
  });

  it("documents a briefing of the release it was published with, and finds any case of a slug", async () => {
    const storage = createLocalStorage(sim.stateDir);
    const pointer = await readPointer(storage);
    const manifest = pointer && (await readManifest(storage, pointer.release_id));
    expect(manifest?.examples.briefing).toEqual({ slug: "3d-ai-2026-w47" });
    const upper = await sim.get("/api/v1/briefings/3D-AI-2026-W47");
    expect(upper.status).toBe(200);
    expect(upper.body.data.slug).toBe("3d-ai-2026-w47");
  });

  it("answers 404 naming where to look for an unknown slug or a quiet week", async () => {
    const [quiet] = await sim.db.all<{ slug: string }>(
      "SELECT slug FROM ds_briefings WHERE is_quiet LIMIT 1",
    );
    for (const slug of ["agents-1999-w01", quiet?.slug as string]) {
      const { status, body } = await sim.get(`/api/v1/briefings/${slug}`);
      expect(status).toBe(404);
      expect(body.detail.error).toMatchObject({
        code: "not_found",
        message: `No briefing "${slug}"; list the briefings with /api/v1/briefings (or /api/v1/briefings?domain=<domain>) and use a slug from there.`,
      });
    }
  });

  it("refuses a malformed slug and query parameters with 422 invalid_parameter", async () => {
    const bad = await sim.get("/api/v1/briefings/-agents");
    expect(bad.status).toBe(422);
    expect(bad.body.detail.error.code).toBe("invalid_parameter");
    expect(bad.body.detail.error.message).toContain("slug must be a slug of letters, digits");
    const extra = await sim.get("/api/v1/briefings/3d-ai-2026-w47?domain=agents");
    expect(extra.status).toBe(422);
    expect(extra.body.detail.error.message).toContain('Unknown parameter "domain"');
  });
});
