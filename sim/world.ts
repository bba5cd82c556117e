// The simulated world: N invented AI repositories, fixed by (seed, N, anchor date). Numeric parameters
// live in typed arrays; names are built once (they must be unique), other strings derived on demand.
import { parseDay } from "./dates.ts";
import { MAX_OWNERS, normalisePypiName, ownerLogin, pypiCandidateName, repoBaseName } from "./names.ts";
import { decodeNodeId, encodeNodeId } from "./node-id.ts";
import { hash32, SALT, unit } from "./random.ts";
import { FLAG_PYPI, generateParams, type RepoParams } from "./repo-params.ts";
import { DOMAINS } from "./vocabulary.ts";

export interface WorldOptions {
  repos: number;
  seed: number;
  /** YYYY-MM-DD the world is built around: ~8 years of history before it, a few repositories after it. */
  anchor: string;
  /** Share of repositories renamed on a day within 180 days after the anchor (default 0.003). */
  renameShare?: number;
  /** Share of repositories deleted on a day within 180 days after the anchor (default 0.002). */
  deleteShare?: number;
}

export interface World {
  readonly seed: number;
  readonly size: number;
  readonly anchorDay: number;
  readonly params: RepoParams;
  ownerOf(index: number): number;
  isOrganization(owner: number): boolean;
  ownerLogin(owner: number): string;
  repoName(index: number): string;
  fullName(index: number): string;
  /** Index of owner/name (case-insensitive, as on GitHub), or undefined. */
  findRepo(owner: string, name: string): number | undefined;
  /** The PyPI project name of a repository that publishes one. */
  pypiName(index: number): string | undefined;
  /** Index of the repository behind a PyPI project (PEP 503-normalised lookup), or undefined. */
  findPypi(name: string): number | undefined;
  databaseId(index: number): number;
  nodeId(index: number): string;
  /** Index of a repository node id, or undefined. */
  findNodeId(id: string): number | undefined;
  /** Index of a repository database id (REST /repositories/{id}), or undefined. */
  findDatabaseId(id: number): number | undefined;
  /** Day the repository gets its new name (Infinity when never renamed); node and database ids stay. */
  renameDay(index: number): number;
  /** Day the repository is deleted (Infinity when never). */
  deleteDay(index: number): number;
  /** The repository name at an instant: the new name from its rename day on. */
  repoNameAt(index: number, instant: number): string;
  fullNameAt(index: number, instant: number): string;
  /**
   * owner/name at an instant: the index and whether that is a former name (a rename to follow).
   * A new name is unknown before the rename day; deletion is left to the caller (deleteDay).
   */
  resolveRepo(owner: string, name: string, instant: number): { index: number; renamed: boolean } | undefined;
}

const OWNER_SHARE = 0.35;
const RENAME_SUFFIXES = ["next", "core", "lab", "v2", "hub", "kit"];
const DATABASE_ID_BASE = 110_000_000;
const DATABASE_ID_STRIDE = 7;

export function createWorld(options: WorldOptions): World {
  const { seed } = options;
  const size = Math.max(1, Math.floor(options.repos));
  const anchorDay = parseDay(options.anchor);
  if (anchorDay === undefined)
    throw new Error(`Sim anchor date "${options.anchor}" is not a YYYY-MM-DD day.`);
  const params = generateParams(seed, size, anchorDay);
  const ownerCount = Math.max(1, Math.min(MAX_OWNERS, Math.round(size * OWNER_SHARE)));
  const owners = new Int32Array(size);
  for (let i = 0; i < size; i++) owners[i] = Math.floor(ownerCount * unit(seed, i, SALT.owner) ** 1.8);

  const isOrganization = (owner: number) => owner < ownerCount * 0.3 || unit(seed, owner, 0x0b) < 0.15;
  const login = (owner: number) => ownerLogin(seed, owner, isOrganization(owner));
  const names: string[] = new Array(size);
  const byFullName = new Map<string, number>();
  const pypiNames: (string | undefined)[] = new Array(size);
  const byPypi = new Map<string, number>();
  for (let i = 0; i < size; i++) {
    const ownerName = login(owners[i] as number);
    const parts = (DOMAINS[params.domain[i] as number] as (typeof DOMAINS)[number]).nameParts;
    const base = repoBaseName(seed, i, parts);
    let name = base;
    for (let n = 2; byFullName.has(`${ownerName}/${name.toLowerCase()}`); n++) name = `${base}-${n}`;
    names[i] = name;
    byFullName.set(`${ownerName}/${name.toLowerCase()}`, i);
    if ((params.flags[i] as number) & FLAG_PYPI) {
      const candidates = [pypiCandidateName(seed, i, ownerName, name), `${ownerName}-${name.toLowerCase()}`];
      let chosen = candidates.find((c) => !byPypi.has(normalisePypiName(c))) ?? `${name.toLowerCase()}-${i}`;
      if (byPypi.has(normalisePypiName(chosen))) chosen = `${ownerName}-${name.toLowerCase()}-${i}`;
      pypiNames[i] = chosen;
      byPypi.set(normalisePypiName(chosen), i);
    }
  }

  const renameShare = options.renameShare ?? 0.003;
  const deleteShare = options.deleteShare ?? 0.002;
  const eventDay = (i: number, salt: number, share: number) =>
    unit(seed, i, salt) < share ? anchorDay + 1 + Math.floor(unit(seed, i, salt, 1) * 180) : Infinity;
  const newNames = new Map<number, string>();
  const byNewName = new Map<string, number>();
  const taken = (key: string) => byFullName.has(key) || byNewName.has(key);
  for (let i = 0; i < size; i++) {
    if (eventDay(i, SALT.rename, renameShare) === Infinity) continue;
    const owner = login(owners[i] as number).toLowerCase();
    let name = `${names[i]}-${RENAME_SUFFIXES[hash32(seed, i, SALT.rename) % RENAME_SUFFIXES.length]}`;
    const base = name;
    for (let n = 2; taken(`${owner}/${name.toLowerCase()}`); n++) name = `${base}-${n}`;
    newNames.set(i, name);
    byNewName.set(`${owner}/${name.toLowerCase()}`, i);
  }
  const renameDay = (i: number) => (newNames.has(i) ? eventDay(i, SALT.rename, renameShare) : Infinity);
  const repoNameAt = (i: number, instant: number) =>
    instant >= renameDay(i) ? (newNames.get(i) as string) : (names[i] as string);

  const databaseId = (i: number) =>
    DATABASE_ID_BASE + i * DATABASE_ID_STRIDE + (hash32(seed, i, 0xdb) % DATABASE_ID_STRIDE);
  const findDatabaseId = (id: number) => {
    const index = Math.floor((id - DATABASE_ID_BASE) / DATABASE_ID_STRIDE);
    return index >= 0 && index < size && databaseId(index) === id ? index : undefined;
  };
  return {
    seed,
    size,
    anchorDay,
    params,
    ownerOf: (i) => owners[i] as number,
    isOrganization,
    ownerLogin: login,
    repoName: (i) => names[i] as string,
    fullName: (i) => `${login(owners[i] as number)}/${names[i]}`,
    findRepo: (owner, name) => byFullName.get(`${owner.toLowerCase()}/${name.toLowerCase()}`),
    pypiName: (i) => pypiNames[i],
    findPypi: (name) => byPypi.get(normalisePypiName(name)),
    databaseId,
    nodeId: (i) => encodeNodeId("R", databaseId(i)),
    findNodeId: (id) => {
      const match = decodeNodeId("R", id);
      return match === undefined ? undefined : findDatabaseId(match);
    },
    findDatabaseId,
    renameDay,
    deleteDay: (i) => eventDay(i, SALT.delete, deleteShare),
    repoNameAt,
    fullNameAt: (i, instant) => `${login(owners[i] as number)}/${repoNameAt(i, instant)}`,
    resolveRepo: (owner, name, instant) => {
      const key = `${owner.toLowerCase()}/${name.toLowerCase()}`;
      const renamed = byNewName.get(key);
      if (renamed !== undefined)
        return instant >= renameDay(renamed) ? { index: renamed, renamed: false } : undefined;
      const index = byFullName.get(key);
      if (index === undefined) return undefined;
      return { index, renamed: instant >= renameDay(index) };
    },
  };
}
