// The API key format: prefix, length, alphabet, and a CRC32 checksum that catches a changed character.
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { API_KEY_PATTERN, API_KEY_PREFIX_PATTERN } from "../../schemas/index.ts";
import { checksum, displayPrefix, generateKey, isWellFormedKey } from "./keys.ts";

const BODY = "abcdefghijABCDEFGHIJ0123456789";

describe("API keys", () => {
  it("checksums the 30-character body as six base62 digits of its CRC32", () => {
    expect(crc32(BODY)).toBe(2_010_150_927);
    // 2,010,150,927 = 2·62^5 + 12·62^4 + 2·62^3 + 24·62^2 + 5·62 + 9 → digits 2, C, 2, O, 5, 9
    expect(checksum(BODY)).toBe("2C2O59");
    expect(checksum("")).toBe("000000");
  });

  it("makes keys of the documented shape whose checksum holds", () => {
    const keys = Array.from({ length: 200 }, generateKey);
    for (const key of keys) {
      expect(key).toMatch(API_KEY_PATTERN);
      expect(key).toHaveLength(40);
      expect(isWellFormedKey(key)).toBe(true);
      expect(displayPrefix(key)).toMatch(API_KEY_PREFIX_PATTERN);
      expect(displayPrefix(key)).toBe(key.slice(0, 12));
    }
    expect(new Set(keys).size).toBe(200);
  });

  it("refuses a wrong prefix, length, alphabet or checksum", () => {
    const key = `pis_${BODY}${checksum(BODY)}`;
    expect(isWellFormedKey(key)).toBe(true);
    expect(isWellFormedKey(`pit_${key.slice(4)}`)).toBe(false);
    expect(isWellFormedKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedKey(`${key}0`)).toBe(false);
    expect(isWellFormedKey(`${key.slice(0, 10)}-${key.slice(11)}`)).toBe(false);
    // one changed body character: the checksum no longer matches
    expect(isWellFormedKey(`${key.slice(0, 10)}${key[10] === "x" ? "y" : "x"}${key.slice(11)}`)).toBe(false);
    // one changed checksum character
    expect(isWellFormedKey(`${key.slice(0, -1)}${key.endsWith("9") ? "8" : "9"}`)).toBe(false);
    expect(isWellFormedKey("")).toBe(false);
  });
});
