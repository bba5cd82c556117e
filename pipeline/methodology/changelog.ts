// What changed in the methodology, version by version, newest first: published in /api/v1/methodology and
// docs/methodology.md beside the rules, so a reader whose project moved can see why.
import { METHODOLOGY_VERSION } from "./score.ts";

export interface ChangelogEntry {
  version: string;
  changes: string[];
  /** How the change moved real projects: `npm run bench -- scdiff` (docs/testing.md), null until measured. */
  score_diff: string | null;
}

/**
 * The scdiff summary of version 4 (tier moves and median score change on the reality list), as
 * `npm run bench -- scdiff` measured it on 2026-11-28 against version 3 (a4352ca, bench/results/scdiff-base.jsonl):
 * a record of what this change did, kept as written when later versions rewrite bench/results/scdiff.json.
 */
export const V4_SCORE_DIFF_SUMMARY: string | null =
  "best-of-ml-python 2025-06-26 (422 projects): 143 tiers moved, 406 scores changed, median change +1. " +
  "established→verified 31, emerging→verified 1, emerging→established 33, established→emerging 15, " +
  "emerging→experimental 55 (dead projects decaying), experimental→emerging 8.";

export const METHODOLOGY_CHANGELOG: readonly ChangelogEntry[] = [
  {
    version: "4",
    changes: [
      "Dead projects decay: maturity's history (age, releases, stable release, stable share) and every community input count in full while a project shows life (a commit, push or release within alive_full_days) and fade linearly to dead_history_share by alive_zero_days, so a famous project with no push for two years that is not finished falls to experimental. The explanation carries history_share.",
      "0.x is not punished: the stable-release points go to a 1.0+ version or to a 0.x project released like a stable one (age, number and pace of releases, the latest not a pre-release, real adoption: adopted_min_downloads_monthly). A version is read wherever it stands in a tag (client/v2.5.4 is 2.5.4, 4.52.4-Kyutai-STT-preiew is 4.52.4), and a pre-release of a version above 1.0 after stable_practice_min_releases releases (v4.0.0-rc.1) does not undo the stable releases before it (amended before release); the input is renamed stable_v1 -> stable_release.",
      "The finished-project rule reads what a list knows: without a response time, the share of issues closed (finished_min_closed_share) decides instead of a count of open issues, which punished exactly the adopted libraries; a finished project needs real adoption in downloads (dependents alone no longer count) and a release within finished_release_window_days. finished_min_downloads_monthly, finished_min_dependents and finished_max_open_issues are gone.",
      "Each input counted once: an unknown input earns the share all the project's known inputs earned (a maintenance one no more than the last commit's recency), not its own component's alone, which let a commit count stand in for three of maintenance's five inputs. A rate input's unstated registry likes, homepage and topics are unknown, not zero. active_weeks_52w is 0 without a push in 52 weeks.",
      "Dependents on a plain log scale, each of its two measures up to a cap of its own: a list's count (GitHub's dependency graph) up to dependents_graph_cap (100,000), so 55 dependents and 1.9 million no longer score the same; the nightly's count of tracked repositories depending on a project on the curved adoption scale up to dependents_tracked_cap (100), as version 3 scored it, since it can never pass the repositories tracked (amended before release: one cap of 100,000 for both left the library 39 of the demo's 3,000 repositories build on 1 of 3 points; it moves no project of the reality list). Conda downloads and GitHub release-asset downloads (all-time totals, spread over the months since the repository was created and listed under estimated) and a list's all-registry monthly downloads count towards downloads. A repository with package_mismatch_min_stars stars whose package has under package_mismatch_max_downloads downloads a month is flagged package_mismatch.",
      "Caps: issues_cap and merged_prs_cap 5,000 (the flagships of the field pass them), so the known inputs decide the community of a mid-size project rather than an unknown one's fallback.",
      "History on real cadence (projintel rate --history): lifecycle confirmation is counted in days (lifecycle_confirm_days, was three nights), star windows are read between snapshots at most snapshot_gap_max_days apart and are unknown across a longer gap, and a rename keeps one history (rename_max_star_change). Stages hold still on real history: an unknown 30-day star window no longer reads as no gain (growing and launching hold through it), the activity ratio makes a repository fading only after fading_quiet_days without a commit (amended before release: a commit within fading_exit_days first; a whole quarter left fewer of the fading to revive within the year, 78% not revived against 75%), fading_enter_days 120 -> 150 and lifecycle_min_dwell_days 14 -> 56 (the backtest: changes undone within eight weeks fell from 12.8% to 0).",
      "Explanations: every input carries fallback (true only when its value is unknown and its points are its fallback's); fallbacks names exactly those, estimated names the inputs read from a stand-in (the push date, GraphQL's commit count, all-time totals), flags the figures not to trust. Every page shows an unknown input as “unknown (fallback)”.",
    ],
    score_diff: V4_SCORE_DIFF_SUMMARY,
  },
];

if (METHODOLOGY_CHANGELOG[0]?.version !== METHODOLOGY_VERSION) {
  throw new Error(
    `The methodology changelog's newest entry is version ${METHODOLOGY_CHANGELOG[0]?.version}, not ${METHODOLOGY_VERSION}: add an entry for the bumped version in pipeline/methodology/changelog.ts.`,
  );
}
