// The constants of the derived datasets (leaderboards, labs, digest, briefings): floors, caps, windows and sizes.
// Named once here, read by the pipeline/sql/ds_*.sql and public-table files as DuckDB variables.
import type { Constant } from "../methodology.ts";

export const DATASET_CONSTANTS: readonly Constant[] = [
  // velocity: the commit-activity leaderboard
  {
    name: "velocity_weeks",
    value: 4,
    component: "datasets",
    doc: "Velocity shows the commits of the last this many weeks of GitHub's weekly counts (REST) beside commits_30d.",
  },
  {
    name: "velocity_weeks_max_age_days",
    value: 8,
    component: "datasets",
    doc: "Weekly commit counts fetched longer ago than this many days are not shown: their last weeks are no longer recent.",
  },
  // contributors: projects gaining contributors
  {
    name: "contributors_window_days",
    value: 30,
    component: "datasets",
    doc: "Contributor growth compares the first and the latest count known within this many days.",
  },
  {
    name: "contributors_min_base",
    value: 5,
    component: "datasets",
    doc: "A project enters the contributor leaderboard only if it had at least this many contributors at the window's start.",
  },
  {
    name: "contributors_trending_size",
    value: 25,
    component: "datasets",
    doc: "Projects listed per stack layer in the contributor leaderboard.",
  },
  // dependencies: packages with rising downloads
  {
    name: "dependencies_min_monthly",
    value: 1000,
    component: "datasets",
    doc: "A package enters the rising-downloads leaderboard only with at least this many downloads in the last month.",
  },
  {
    name: "dependencies_growth_cap_pct",
    value: 300,
    component: "datasets",
    doc: "Download growth is capped at this percentage, so a tiny base cannot dominate the leaderboard.",
  },
  {
    name: "dependencies_compare_days",
    value: 7,
    component: "datasets",
    doc: "npm without a daily series: the monthly total is compared with the one read at least this many days earlier.",
  },
  {
    name: "dependencies_compare_max_days",
    value: 14,
    component: "datasets",
    doc: "npm without a daily series: an earlier monthly total older than this many days is too old to compare with.",
  },
  {
    name: "dependencies_trending_size",
    value: 50,
    component: "datasets",
    doc: "Packages listed per registry in the rising-downloads leaderboard.",
  },
  // labs
  {
    name: "lab_min_projects",
    value: 3,
    component: "datasets",
    doc: "A GitHub owner not in the curated list of labs (data/labs.json) is a lab when it owns at least this many tracked projects.",
  },
  // what's new and briefings
  {
    name: "whats_new_max_days",
    value: 30,
    component: "datasets",
    doc: "The digest holds the items of this many days; the endpoint serves 1 to this many.",
  },
  {
    name: "whats_new_trending_size",
    value: 20,
    component: "datasets",
    doc: "Projects listed as trending in the digest: the top by stars gained in 7 days.",
  },
  {
    name: "whats_new_post_min_points",
    value: 10,
    component: "datasets",
    doc: "Hacker News posts enter the digest with at least this many points.",
  },
  {
    name: "briefing_days",
    value: 7,
    component: "datasets",
    doc: "A briefing tells what rose, what shipped, which projects entered and which changed stage over this many days.",
  },
  {
    name: "briefing_faded_days",
    value: 30,
    component: "datasets",
    doc: "A briefing tells which projects turned fading or dormant over this many days.",
  },
  {
    name: "briefing_top_n",
    value: 3,
    component: "datasets",
    doc: "Projects a briefing names per section (rose, shipped, entered, moved, faded); the rest are counted.",
  },
];
