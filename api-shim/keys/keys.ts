// The API key format: "pis_" + 30 random base62 characters + a 6-character base62 CRC32 of those 30 characters
// (the body alone, not the prefix). The checksum lets a malformed or mistyped key be refused before any lookup.
import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

export const KEY_PREFIX = "pis_";
/** Random characters of a key: 30 base62 characters hold 178 bits. */
export const KEY_BODY_LENGTH = 30;
/** Base62 digits of the CRC32 checksum: 62^6 > 2^32. */
export const KEY_CHECKSUM_LENGTH = 6;
/** Characters of the body shown after "pis_" in the display prefix (operators and users tell keys apart by it). */
export const DISPLAY_PREFIX_BODY = 8;

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${KEY_BODY_LENGTH + KEY_CHECKSUM_LENGTH}}$`);
/** Random bytes at or above this are redrawn, so each base62 digit is uniform (248 = 4 × 62). */
const UNBIASED_BELOW = 248;

/** A new key; returned once to its creator and never stored. */
export function generateKey(): string {
  let body = "";
  while (body.length < KEY_BODY_LENGTH) {
    for (const byte of randomBytes(KEY_BODY_LENGTH)) {
      if (byte < UNBIASED_BELOW && body.length < KEY_BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return `${KEY_PREFIX}${body}${checksum(body)}`;
}

/** The CRC32 of a key body as 6 base62 digits, zero-padded. */
export function checksum(body: string): string {
  let value = crc32(body);
  let digits = "";
  for (let i = 0; i < KEY_CHECKSUM_LENGTH; i++) {
    digits = ALPHABET[value % 62] + digits;
    value = Math.floor(value / 62);
  }
  return digits;
}

/**
 * What is wrong with `token` as a key: "malformed" without the key's prefix, length or alphabet, "mistyped" with
 * them but a checksum that does not match (a character changed or swapped), undefined for a well-formed key.
 */
export function keyFault(token: string): "malformed" | "mistyped" | undefined {
  if (!KEY_PATTERN.test(token)) return "malformed";
  const body = token.slice(KEY_PREFIX.length, KEY_PREFIX.length + KEY_BODY_LENGTH);
  return token.slice(KEY_PREFIX.length + KEY_BODY_LENGTH) === checksum(body) ? undefined : "mistyped";
}

/** True when `token` has the key's prefix, length, alphabet and a matching checksum. */
export function isWellFormedKey(token: string): boolean {
  return keyFault(token) === undefined;
}

/** The part of a key that may be shown and stored in the clear: "pis_" and 8 characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + DISPLAY_PREFIX_BODY);
}
