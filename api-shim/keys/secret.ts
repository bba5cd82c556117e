// The server secret keying every stored hash (API keys, client addresses, e-mail addresses), so a copy of the
// state folder's files reveals none of them. From config (PROJINTEL_SERVER_SECRET), else a file made on first run.
import { createHmac, randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../../core/errors.ts";

/** Bytes of a generated secret (256 bits, the HMAC-SHA-256 block's worth of strength). */
const SECRET_BYTES = 32;
/** Owner read/write only: the secret must not be readable by other users of the machine. */
const SECRET_MODE = 0o600;

/** The configured secret, or the one in `file`, created (mode 0600) if it does not exist yet. */
export async function loadServerSecret(configured: string | undefined, file: string): Promise<string> {
  if (configured) return configured;
  try {
    const saved = (await readFile(file, "utf8")).trim();
    if (saved.length >= SECRET_BYTES) return saved;
    throw new AppError(`The server secret in ${file} is shorter than ${SECRET_BYTES} characters.`, {
      hint: "Restore it from a backup, or delete it to make a new one (every API key issued so far stops working).",
      stage: "serve",
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(path.dirname(file), { recursive: true });
  const secret = randomBytes(SECRET_BYTES).toString("hex");
  try {
    // "wx": two processes starting at once must not each write their own secret; the loser reads the winner's.
    await writeFile(file, `${secret}\n`, { mode: SECRET_MODE, flag: "wx" });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return loadServerSecret(undefined, file);
    throw error;
  }
}

/** HMAC-SHA-256 of `value` under the secret, hex. */
export function keyedHash(secret: string, value: string): string {
  return createHmac("sha256", secret).update(value).digest("hex");
}
