// `projintel keys`: operators list, show and revoke API keys by their display prefix. A key itself is never stored,
// so it can never be printed; neither are the HMACs. Today's count comes from the configured quota store.
import { existsSync } from "node:fs";
import type { Command } from "commander";
import { type Config, statePaths } from "../core/config.ts";
import { AppError } from "../core/errors.ts";
import { createContext } from "./context.ts";
import { withStateFlags } from "./options.ts";

type KeyRecord = import("../api-shim/keys/store.ts").KeyRecord;
type KeyStore = import("../api-shim/keys/store.ts").KeyStore;

export function registerKeys(program: Command): void {
  const keys = program
    .command("keys")
    .description(
      "List, show and revoke API keys (by their prefix, e.g. pis_Ab3dE5gH); keys themselves are never shown.",
    )
    .addHelpText(
      "after",
      `
Keys live in <state-dir>/keys.jsonl as HMACs, or in Redis with PROJINTEL_QUOTA__STORE=redis (shared by several
shims: set their PROJINTEL_SERVER_SECRET here too); only the display prefix (pis_ and 8 characters) is readable.
A revoked key gets 401 invalid_api_key from a running shim within a second.
Examples:
  projintel keys list
  projintel keys show pis_Ab3dE5gH
  projintel keys revoke pis_Ab3dE5gH`,
    );

  withStateFlags(keys.command("list"))
    .description("List every key: prefix, plan, daily limit, created, revoked, requests today.")
    .action(async (flags) => {
      const { config } = createContext(flags);
      const { records, counts } = await readKeys(config);
      process.stdout.write(`${formatKeys(records, counts, config)}\n`);
    });

  withStateFlags(keys.command("show <prefix>"))
    .description("Show the keys whose prefix starts with <prefix>.")
    .action(async (prefix: string, flags) => {
      const { config } = createContext(flags);
      const { records, counts } = await readKeys(config);
      process.stdout.write(`${formatKeys(matching(records, prefix), counts, config)}\n`);
    });

  withStateFlags(keys.command("revoke <prefix>"))
    .description("Revoke the one key whose prefix starts with <prefix>; it gets 401 from then on.")
    .action(async (prefix: string, flags) => {
      const { config } = createContext(flags);
      const { store } = await openStore(config);
      try {
        await revoke(store, prefix);
      } finally {
        await store.close();
      }
    });
}

/** Revokes the one key whose prefix starts with `prefix`. */
async function revoke(store: KeyStore, prefix: string): Promise<void> {
  const found = matching(store.list(), prefix);
  if (found.length > 1) {
    throw new AppError(`${found.length} keys start with ${prefix}; nothing was revoked.`, {
      hint: "Give more of the prefix (projintel keys list shows them).",
    });
  }
  const [record] = found as [KeyRecord];
  if (record.revoked) {
    process.stdout.write(`${record.prefix} was already revoked at ${record.revoked}.\n`);
    return;
  }
  await store.revoke(record.hash);
  process.stdout.write(`Revoked ${record.prefix} (${record.plan} plan, created ${record.created}).\n`);
}

/** The key store the shims use (config.quota.store), with every key read. */
async function openStore(config: Config) {
  const { openConfiguredKeyStore } = await import("../api-shim/keys/open.ts");
  const { loadServerSecret } = await import("../api-shim/keys/secret.ts");
  const secret = await loadServerSecret(config.serverSecret, statePaths(config).secret);
  const store = await openConfiguredKeyStore(config, {
    secret,
    clock: { now: () => new Date() },
    claimSecret: false,
  });
  try {
    await store.refresh();
  } catch (error) {
    await store.close();
    throw new AppError(`Cannot read the API keys: ${(error as Error).message}`, {
      hint: "Check that Redis answers at PROJINTEL_REDIS__URL (or use the state folder's keys with PROJINTEL_QUOTA__STORE=embedded).",
      cause: error,
    });
  }
  return { store, secret };
}

async function readKeys(config: Config) {
  // No key file yet: nothing to read, and no reason to make a server secret just to list nothing.
  if (config.quota.store === "embedded" && !existsSync(statePaths(config).keys)) {
    return { records: [], counts: new Map<string, number>() };
  }
  const { store, secret } = await openStore(config);
  const records = store.list();
  await store.close();
  const { todayCounts } = await import("../api-shim/keys/usage.ts");
  const counts = await todayCounts(config, secret, records, new Date());
  return { records, counts };
}

function matching(records: KeyRecord[], prefix: string): KeyRecord[] {
  const found = records.filter((r) => r.prefix.startsWith(prefix) || prefix.startsWith(r.prefix));
  if (found.length === 0) {
    throw new AppError(`No key starts with ${prefix}.`, {
      hint: "projintel keys list shows every key's prefix.",
    });
  }
  return found;
}

/** An aligned table, one key a line; "-" where a key is not revoked or its count could not be read. */
export function formatKeys(records: KeyRecord[], counts: Map<string, number>, config: Config): string {
  if (records.length === 0) return "No API keys yet; POST /api/v1/keys creates one.";
  const rows = records.map((r) => [
    r.prefix,
    r.plan,
    String(r.plan === "email" ? config.quota.email : config.quota.free),
    r.created,
    r.revoked ?? "-",
    String(counts.get(r.hash) ?? "-"),
  ]);
  const header = ["prefix", "plan", "daily_limit", "created", "revoked", "today"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  const count = `${records.length} key${records.length === 1 ? "" : "s"}`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line), count].join("\n");
}
