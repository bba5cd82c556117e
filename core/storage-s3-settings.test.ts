// The AWS SDK's own configuration is honoured: with PROJINTEL_S3__CHECKSUM_MODE unset, the checksum behaviour comes
// from AWS_REQUEST_CHECKSUM_CALCULATION or the AWS profile, as for any AWS tool; the project's setting applies only
// when it is given. Each upload runs in its own process (the SDK reads its environment there), against real s3rver.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childOutput } from "../test/child-output.ts";
import { type S3TestServer, startS3Server } from "../test/s3-server.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUCKET = "sdk-settings";
const BODY = "sixbyt";
let server: S3TestServer;
let files: string;

beforeAll(async () => {
  server = await startS3Server();
  await server.bucket(BUCKET);
  files = await mkdtemp(path.join(tmpdir(), "s3-settings-"));
  await writeFile(path.join(files, "six.bin"), BODY);
});
afterAll(async () => {
  await server?.stop();
  await rm(files, { recursive: true, force: true });
});

/** Streams six.bin to `<key>` from a child process with `env` (and config.s3.checksumMode when given). */
async function uploadInChild(key: string, env: Record<string, string>, checksumMode?: string) {
  const { checksumMode: _, ...s3 } = server.config.s3;
  const settings = {
    bucket: BUCKET,
    prefix: "",
    options: { ...s3, ...(checksumMode ? { checksumMode } : {}) },
    client: { endpoint: server.url, region: server.client.region, credentials: server.client.credentials },
  };
  const storageModule = JSON.stringify(pathToFileURL(path.join(ROOT, "core/storage-s3.ts")).href);
  const script = `import { createS3Storage } from ${storageModule};
    await createS3Storage(${JSON.stringify(settings)}).putFile(${JSON.stringify(key)}, ${JSON.stringify(path.join(files, "six.bin"))});`;
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("PROJINTEL_") && !k.startsWith("AWS_")),
  );
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: ROOT,
    env: { ...inherited, AWS_CONFIG_FILE: path.join(files, "none"), ...env },
  });
  const result = await childOutput(child);
  expect(result.code, result.stderr).toBe(0);
  return (await server.storage(BUCKET).get(key))?.toString();
}

describe("the SDK's own checksum settings", () => {
  it("without any setting, the SDK's default (when_supported) streams with a checksum trailer s3rver keeps", async () => {
    const stored = await uploadInChild("default.bin", {});
    expect(stored).not.toBe(BODY);
    expect(stored).toContain("x-amz-checksum-crc32");
  });

  it("AWS_REQUEST_CHECKSUM_CALCULATION=WHEN_REQUIRED in the environment is honoured", async () => {
    expect(await uploadInChild("env.bin", { AWS_REQUEST_CHECKSUM_CALCULATION: "WHEN_REQUIRED" })).toBe(BODY);
  });

  it("request_checksum_calculation in the AWS profile is honoured", async () => {
    const config = path.join(files, "aws-config");
    await writeFile(config, "[profile s3rver]\nrequest_checksum_calculation = when_required\n");
    const env = { AWS_CONFIG_FILE: config, AWS_PROFILE: "s3rver" };
    expect(await uploadInChild("profile.bin", env)).toBe(BODY);
  });

  it("PROJINTEL_S3__CHECKSUM_MODE, when given, overrides the SDK's setting", async () => {
    const env = { AWS_REQUEST_CHECKSUM_CALCULATION: "WHEN_SUPPORTED" };
    expect(await uploadInChild("project.bin", env, "when_required")).toBe(BODY);
  });
});
