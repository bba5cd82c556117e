// Uploading releases to an S3-compatible bucket (s3rver on loopback, in this process): the demo's world (3,000
// simulated repositories) scored by `nightly`, then `projintel publish --target s3://…` of the full release into
// three empty prefixes, and of the next night's release into each of them (only the changed objects uploaded, the
// rest copied in the bucket). Objects, bytes and seconds from the publish report, wall and peak memory measured;
// medians of the three.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PublishReport } from "../publish/release.ts";
import { startS3Server } from "../test/s3-server.ts";
import { measureCommand, median } from "./measure.ts";
import { CLI, startSim } from "./pipeline.ts";

const BUCKET = "bench-releases";
const FIRST_NIGHT = "2026-11-20";

async function projintel(args: string[], env: Record<string, string> = {}) {
  const measured = await measureCommand(process.execPath, [CLI, ...args, "--log-level", "warn"], { env });
  if (measured.exit_code !== 0) throw new Error(`projintel ${args.join(" ")} exited ${measured.exit_code}`);
  return measured;
}

/** One publish to `target`: the report's transfer figures, and the process's wall time and peak memory. */
async function publishTo(state: string, target: string, env: Record<string, string>) {
  const reportFile = path.join(state, "s3-publish-report.json");
  const measured = await projintel(
    ["publish", "--state-dir", state, "--force", "--target", target, "--report-json", reportFile],
    env,
  );
  const report = JSON.parse(await readFile(reportFile, "utf8")) as PublishReport;
  return {
    objects: report.files,
    bytes: report.bytes,
    uploaded: report.transfer.uploaded,
    copied: report.transfer.copied,
    skipped: report.transfer.skipped,
    bytes_uploaded: report.transfer.bytesUploaded,
    seconds: report.transfer.seconds,
    wall_ms: measured.wall_ms,
    peak_rss_mib: measured.peak_rss_mib,
  };
}

type Upload = Awaited<ReturnType<typeof publishTo>>;

function medians(runs: Upload[]) {
  const pick = (key: keyof Upload) => median(runs.map((r) => r[key]));
  return {
    runs,
    objects: pick("objects"),
    bytes: pick("bytes"),
    uploaded: pick("uploaded"),
    copied: pick("copied"),
    bytes_uploaded: pick("bytes_uploaded"),
    median_seconds: pick("seconds"),
    median_wall_ms: pick("wall_ms"),
    median_peak_rss_mib: pick("peak_rss_mib"),
  };
}

export async function benchS3Upload(repos: number, rounds = 3) {
  const state = await mkdtemp(path.join(os.tmpdir(), "projintel-s3-upload-"));
  const sim = await startSim(repos, FIRST_NIGHT);
  const server = await startS3Server();
  try {
    await server.bucket(BUCKET);
    const targets = Array.from({ length: rounds }, (_, i) => `s3://${BUCKET}/round-${i + 1}`);
    await projintel(["nightly", "--sim", sim.url, "--state-dir", state, "--force"]);
    const full: Upload[] = [];
    for (const target of targets) full.push(await publishTo(state, target, server.env));
    // the next night on the simulator, then its release onto each of the three
    const advanced = await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
    if (!advanced.ok) throw new Error(`the simulator refused to advance: ${advanced.status}`);
    await projintel(["nightly", "--sim", sim.url, "--state-dir", state, "--force"]);
    const next: Upload[] = [];
    for (const target of targets) next.push(await publishTo(state, target, server.env));
    return {
      repos,
      server: "s3rver 3.7 on loopback",
      full_release: medians(full),
      next_night: medians(next),
    };
  } finally {
    sim.child.kill("SIGTERM");
    await server.stop();
    await rm(state, { recursive: true, force: true });
  }
}
