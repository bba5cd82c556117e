// Classification figures: accuracy on the labelled real repositories (data/labelled/: the tuning part and the
// held-out part; domain right when it is the label or an accepted alternate; stack layer), the reality list's shared
// half (a domain its category accepts, decisions by a lone generic word, the ml-frameworks bucket), and the time to
// classify the labelled repositories.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { classifyRepos, evaluateClassifications, parseClassifyInput } from "../pipeline/classify.ts";
import { HOLDOUT_FILE, TUNING_FILE } from "../pipeline/labelled-split.ts";
import { classificationFigures, classifyRealityList } from "../pipeline/lists/classify-reality.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

async function measureLabelled(file: string) {
  const rows = parseClassifyInput(await readFile(file, "utf8"), file);
  const started = performance.now();
  const results = await classifyRepos(rows);
  const ms = Math.round(performance.now() - started);
  const report = evaluateClassifications(rows, results);
  return {
    file: path.relative(ROOT, file),
    rows: report.rows,
    domain_correct: report.domain_correct,
    domain_accuracy: report.domain_accuracy,
    layer_correct: report.layer_correct,
    layer_accuracy: report.layer_accuracy,
    misses: report.misses.map(
      (m) =>
        `${m.full_name}: ${m.domain}/${m.stack_layer}, labelled ${m.expected_domain}/${m.expected_layer}`,
    ),
    ms,
  };
}

export async function benchClassify() {
  return {
    tuning: await measureLabelled(TUNING_FILE),
    holdout: await measureLabelled(HOLDOUT_FILE),
    reality: classificationFigures(await classifyRealityList()),
  };
}
