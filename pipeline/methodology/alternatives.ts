// The constants of a project's alternatives (the project detail's `alternatives`): how many, and which shared
// topics and dependencies say that two projects of a domain do the same job. Named once here, read by
// pipeline/sql/alternatives.sql as DuckDB variables.
import type { Constant } from "../methodology.ts";

export const ALTERNATIVE_CONSTANTS: readonly Constant[] = [
  {
    name: "alternatives_max",
    value: 5,
    component: "datasets",
    doc: "Alternatives listed per project: tracked projects of the same subcategory first, then of the same domain sharing a distinctive topic or dependency, each group by quality score (then stars, then name); archived projects and forks are never suggested.",
  },
  {
    name: "alternatives_term_share_max",
    value: 0.2,
    component: "datasets",
    doc: "A topic or dependency held by more than this share of a domain's projects (python, deep-learning, numpy) says nothing about the job and does not make two projects of that domain alternatives; it must also be held by at least two of them.",
  },
  {
    name: "alternatives_term_candidates",
    value: 11,
    component: "datasets",
    doc: "Candidates read per topic or dependency of a domain, best first: enough to fill every slot after the same-subcategory ones, and it bounds the work at 220,000 repositories (a pair per candidate, never every pair of a domain).",
  },
];
