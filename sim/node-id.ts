// GitHub-style global node ids. New-format ids are a type prefix plus URL-safe base64 of a MessagePack
// array: [0, databaseId] for repositories and users ("R_kgDO…"), [0, repoId, releaseId] for releases.

function be32(value: number): number[] {
  return [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
}

function base64url(bytes: number[]): string {
  return Buffer.from(bytes).toString("base64url");
}

/** "R_kgDO…" style id of a record with a 32-bit database id. */
export function encodeNodeId(prefix: string, databaseId: number): string {
  return `${prefix}_${base64url([0x92, 0x00, 0xce, ...be32(databaseId)])}`;
}

/** The database id inside an id made by encodeNodeId with this prefix, or undefined. */
export function decodeNodeId(prefix: string, id: string): number | undefined {
  if (!id.startsWith(`${prefix}_kgDO`)) return undefined;
  const bytes = Buffer.from(id.slice(prefix.length + 1), "base64url");
  if (bytes.length !== 7 || bytes[0] !== 0x92 || bytes[1] !== 0x00 || bytes[2] !== 0xce) return undefined;
  const value = bytes.readUInt32BE(3);
  return encodeNodeId(prefix, value) === id ? value : undefined;
}

/** "RE_kwDO…" style id of a record nested in a repository (a release). */
export function encodeNestedId(prefix: string, parentId: number, childId: number): string {
  return `${prefix}_${base64url([0x93, 0x00, 0xce, ...be32(parentId), 0xce, ...be32(childId)])}`;
}

/** "C_kwDO…" id of a commit: [0, repoId, oid as a 40-character string]. */
export function encodeCommitId(repoId: number, oid: string): string {
  return `C_${base64url([0x93, 0x00, 0xce, ...be32(repoId), 0xd9, oid.length, ...Buffer.from(oid)])}`;
}

/** Legacy-format id ("MDU6VG9waWMxMjM=" is "05:Topic123"), still used by GitHub for topics, licenses… */
export function encodeLegacyId(typeName: string, databaseId: number): string {
  const text = `${String(typeName.length).padStart(2, "0")}:${typeName}${databaseId}`;
  return Buffer.from(text).toString("base64");
}
