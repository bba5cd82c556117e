// The constants of the signals computed beside the score: freshness, attention windows, star trends, momentum,
// hype and lifecycle stages. Named once here, read by the .sql files as DuckDB variables.
import type { Constant } from "../methodology.ts";

export const SIGNAL_CONSTANTS: readonly Constant[] = [
  {
    name: "package_stale_days",
    value: 8,
    component: "freshness",
    doc: "A registry package whose latest row is older than this many days is flagged stale (every refresh tier comes back within 7).",
  },
  // trends
  {
    name: "trend_window_days",
    value: 30,
    component: "trend",
    doc: "The long star window (stars_30d_delta); the short one is 7 days. A day's count is the median of it and the two days before it, and a day's gain is never negative, so one-day spikes and star purges do not move the deltas.",
  },
  {
    name: "snapshot_gap_max_days",
    value: 35,
    component: "trend",
    doc: "Nights are not always daily (a failed night; a list recorded weekly). A star or commit count on a day between two counts at most this many days apart is read off the straight line between them, so a window's delta is the gain scaled to the window; inside a longer gap the count is unknown, and so is every delta whose window touches it (NULL, not a guess).",
  },
  {
    name: "rename_max_star_change",
    value: 0.1,
    component: "trend",
    doc: "Replaying a list's history: a name that appears after another name of the same creation time (to the second) was last listed is the same repository renamed, if its first star count is within this share of the count the other name ended with (a rename keeps the stars; two projects created the same second do not share them).",
  },
  {
    name: "growth_min_base_stars",
    value: 25,
    component: "trend",
    doc: "Growth in percent divides a window's gain by the stars at its start, but by no fewer than this many, so that tiny repositories do not show runaway percentages.",
  },
  {
    name: "momentum_min_daily_rate",
    value: 1,
    component: "momentum",
    doc: "Momentum is (7-day daily rate - 30-day daily rate) / 30-day daily rate; the divisor is at least this many stars a day. -1 means the gains stopped, 0 steady, above 0 accelerating.",
  },
  {
    name: "momentum_cap",
    value: 10,
    component: "momentum",
    doc: "Momentum is capped at this value (a sudden start from almost nothing).",
  },
  // hype
  {
    name: "hype_downloads_per_star",
    value: 100,
    component: "hype",
    doc: "Hype ratio = ln(1 + attention) / (ln(1 + attention) + ln(1 + adoption)), between 0 and 1 (0.5 balanced, towards 1 all attention). Attention is stars plus Hacker News points of the attention window; adoption is monthly downloads divided by this many, plus weighted dependents.",
  },
  {
    name: "hype_stars_per_dependent",
    value: 50,
    component: "hype",
    doc: "In the hype ratio, each tracked repository depending on the project's package counts as this many stars' worth of adoption.",
  },
  // lifecycle: thresholds come in pairs, a stricter one to enter a stage and a looser one to stay in it
  {
    name: "lifecycle_confirm_days",
    value: 2,
    component: "lifecycle",
    doc: "A repository changes stage only when the nights' facts have pointed to the same new stage on every night for at least this many days, from the first such night to tonight: three nights in a row when nights are daily, two when they are a week apart; archiving is the exception and changes the stage to dormant the same night.",
  },
  {
    name: "lifecycle_min_dwell_days",
    value: 56,
    component: "lifecycle",
    doc: "After a change A -> B, a repository returns to A only once it has been B for more than this many days, so no A -> B -> A is published within them; going to or leaving dormant by archiving is exempt. Eight weeks: on four and a half years of best-of-ml-python's history (the backtest), at 14 days 10% of the changes of stage were undone within eight weeks, most of them slow projects pushing every four or five months and month-long star bursts, a back-and-forth that tells a reader nothing; at eight weeks a true reversal is published up to eight weeks late, and the stages still foretell what followed (the backtest's figures).",
  },
  {
    name: "dormant_enter_days",
    value: 365,
    component: "lifecycle",
    doc: "dormant: archived, or no commit for this many days.",
  },
  {
    name: "dormant_exit_commits_30d",
    value: 3,
    component: "lifecycle",
    doc: "A dormant repository leaves dormancy only with at least this many commits in 30 days (one stray commit does not revive it).",
  },
  {
    name: "fading_enter_days",
    value: 150,
    component: "lifecycle",
    doc: "fading: no commit for this many days, or recent activity below fading_enter_activity of its yearly pace; and its stars are not growing (below growing_exit_pct in 30 days). Five months: many maintained libraries of the field push every three to five months (best-of-ml-python's history), and 120 days called them fading just before their next push.",
  },
  {
    name: "fading_enter_activity",
    value: 0.25,
    component: "lifecycle",
    doc: "Activity ratio = commits in 90 days / a quarter of the commits in 365 days. Below this (with at least fading_min_commits_365d commits in the year) a repository enters fading.",
  },
  {
    name: "fading_exit_activity",
    value: 0.5,
    component: "lifecycle",
    doc: "A fading repository leaves fading when its activity ratio is back to this and it committed within fading_exit_days.",
  },
  {
    name: "fading_exit_days",
    value: 60,
    component: "lifecycle",
    doc: "A commit within this many days is a sign of life: a fading repository leaves fading only with one.",
  },
  {
    name: "fading_quiet_days",
    value: 90,
    component: "lifecycle",
    doc: "The activity ratio makes a repository fading only after this many days without a commit: a whole quarter, the ratio's own window, so a quieter quarter that still holds a commit does not. best-of-ml-python's history (the backtest, quarters 2021-2024): with 60 days, a quarter of the projects fading at a quarter pushed again within the year (389 of 516 not revived), fading or dormant 87.8% not revived, 0.74 stage changes a project-year; with a whole quarter 376 of 480, 89.2%, 0.70.",
  },
  {
    name: "fading_min_commits_365d",
    value: 12,
    component: "lifecycle",
    doc: "The activity ratio is only read for repositories with at least this many commits in the year.",
  },
  {
    name: "launching_max_age_days",
    value: 180,
    component: "lifecycle",
    doc: "launching: younger than this and gaining at least launching_enter_stars_30d stars in 30 days.",
  },
  {
    name: "launching_enter_stars_30d",
    value: 200,
    component: "lifecycle",
    doc: "Stars in 30 days that make a young repository launching.",
  },
  {
    name: "launching_exit_stars_30d",
    value: 100,
    component: "lifecycle",
    doc: "A launching repository stays launching while it gains at least this many stars in 30 days.",
  },
  {
    name: "growing_enter_pct",
    value: 10,
    component: "lifecycle",
    doc: "growing: stars up at least this percent in 30 days, and at least growing_min_stars_30d stars.",
  },
  {
    name: "growing_exit_pct",
    value: 5,
    component: "lifecycle",
    doc: "A growing repository stays growing while its 30-day growth stays at or above this percent.",
  },
  {
    name: "growing_min_stars_30d",
    value: 30,
    component: "lifecycle",
    doc: "Fewest stars gained in 30 days to enter growing (so 3 -> 5 stars is not growth).",
  },
  {
    name: "growing_exit_stars_30d",
    value: 20,
    component: "lifecycle",
    doc: "A growing repository stays growing while it gains at least this many stars in 30 days (the looser level of growing_min_stars_30d, so a repository gaining about that many does not swing between growing and emerging).",
  },
  {
    name: "established_min_age_days",
    value: 365,
    component: "lifecycle",
    doc: "established: at least this old and with established_min_stars stars (or a quality score in the established tier); otherwise an active repository is emerging.",
  },
  {
    name: "established_min_stars",
    value: 500,
    component: "lifecycle",
    doc: "Stars that, with age, make a repository established.",
  },
  {
    name: "established_exit_stars",
    value: 400,
    component: "lifecycle",
    doc: "An established repository stays established while it keeps this many stars.",
  },
  {
    name: "package_window_days",
    value: 90,
    component: "freshness",
    doc: "A package not seen on its registry for this many days is no longer listed for its repository (the link was dropped or the package removed).",
  },
  {
    name: "attention_window_days",
    value: 90,
    component: "hype",
    doc: "Hacker News posts created within this many days count as current attention.",
  },
];
