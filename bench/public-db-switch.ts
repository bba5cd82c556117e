// What a shim downloads of the public database at a release switch, for the year bench: a mirror (the shim's own,
// in this process) switched from one night to the next through the metering proxy, and the nightly part's bytes
// per table (each table copied alone into a file of its own), with the history parts it reads.
import { createReadStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { createPublicDbMirror } from "../api-shim/query/public-db-mirror.ts";
import { openDb } from "../core/db.ts";
import {
  PUBLIC_DB_GZIP_LEVEL,
  PUBLIC_DB_PREFIX,
  parsePublicDbFile,
  readManifestBeside,
} from "../core/public-db.ts";
import { createS3Storage } from "../core/storage-s3.ts";
import { PUBLIC_TABLES } from "../pipeline/public-db.ts";
import { RECENT_SCHEMA } from "../pipeline/public-db-parts.ts";
import type { Transfer } from "../test/s3-meter.ts";
import type { S3TestServer } from "../test/s3-server.ts";

/** A shim's switch from `from` to `to` on the bucket: what the second switch downloaded. */
export async function measureSwitch(options: {
  s3: S3TestServer;
  meter: { url: string; take(): Transfer };
  bucket: string;
  prefix: string;
  from: string;
  to: string;
}): Promise<{ down_bytes: number; down_objects: number }> {
  const { s3, meter } = options;
  const stateRoot = await mkdtemp(path.join(os.tmpdir(), "projintel-switch-"));
  try {
    const storage = createS3Storage({
      bucket: options.bucket,
      prefix: options.prefix,
      options: s3.config.s3,
      client: { ...s3.client, endpoint: meter.url },
    });
    const mirror = await createPublicDbMirror({ storage, stateRoot });
    // each night's build as the bucket holds it (`public-db/<run_date>-<sha256 prefix>.duckdb`), as its release names it
    const keys = await storage.list(PUBLIC_DB_PREFIX);
    const served = (runDate: string) => ({
      run_date: runDate,
      public_db: keys
        .map((key) => key.slice(PUBLIC_DB_PREFIX.length))
        .findLast((file) => parsePublicDbFile(file)?.runDate === runDate),
    });
    await mirror.prepare(served(options.from));
    meter.take();
    await mirror.prepare(served(options.to));
    const { down_bytes, down_objects } = meter.take();
    return { down_bytes, down_objects };
  } finally {
    await rm(stateRoot, { recursive: true, force: true });
  }
}

/**
 * The nightly part `file`: each public table's rows and bytes in it (the split tables' own rows, those of their open
 * periods), and in a database of one file (`whole`: every row, read through the view over the parts), and the history
 * parts its manifest names (how many, their bytes, the largest of each table).
 */
export async function nightlyPartFigures(file: string) {
  const manifest = await readManifestBeside(file);
  const db = await openDb(":memory:");
  const scratch = await mkdtemp(path.join(os.tmpdir(), "projintel-part-size-"));
  const tables: Record<string, { rows: number; bytes: number }> = {};
  const whole: Record<string, { rows: number; bytes: number }> = {};
  /** A table's rows copied alone into a file of their own: its rows and the file's bytes. */
  const alone = async (table: string, from: string) => {
    const copy = path.join(scratch, `${table}.duckdb`);
    await db.run(`ATTACH '${copy}' AS alone`);
    await db.run(`CREATE TABLE alone.${table} AS SELECT * FROM ${from}`);
    const [row] = await db.all<{ n: number }>(`SELECT count(*)::BIGINT AS n FROM alone.${table}`);
    await db.run("CHECKPOINT alone");
    await db.run("DETACH alone");
    const bytes = (await stat(copy)).size;
    await rm(copy, { force: true });
    return { rows: row?.n ?? 0, bytes };
  };
  try {
    for (const part of manifest?.parts ?? []) {
      const partFile = path.join(path.dirname(file), "parts", `${part.name}.duckdb`);
      await db.run(`ATTACH '${partFile}' AS ${part.alias} (READ_ONLY)`);
    }
    await db.run(`ATTACH '${file}' AS nightly (READ_ONLY)`);
    const own = await db.all<{ s: string; t: string }>(
      "SELECT schema_name AS s, table_name AS t FROM duckdb_tables() WHERE database_name = 'nightly'",
    );
    for (const table of PUBLIC_TABLES) {
      const schema = own.some((o) => o.s === RECENT_SCHEMA && o.t === table) ? RECENT_SCHEMA : "main";
      tables[table] = await alone(table, `nightly.${schema}.${table}`);
      whole[table] = await alone(table, `nightly.main.${table}`);
    }
  } finally {
    db.close();
    await rm(scratch, { recursive: true, force: true });
  }
  const parts = manifest?.parts ?? [];
  const partBytes = await Promise.all(
    parts.map(async (p) => (await stat(path.join(path.dirname(file), "parts", `${p.name}.duckdb`))).size),
  );
  const largest: Record<string, { name: string; rows: number; bytes: number; gzipped_bytes: number }> = {};
  for (const [i, part] of parts.entries()) {
    const bytes = partBytes[i] ?? 0;
    if ((largest[part.table]?.bytes ?? -1) < bytes)
      largest[part.table] = { name: part.name, rows: part.rows, bytes, gzipped_bytes: 0 };
  }
  for (const part of Object.values(largest))
    part.gzipped_bytes = await gzippedSize(path.join(path.dirname(file), "parts", `${part.name}.duckdb`));
  return {
    bytes: (await stat(file)).size,
    gzipped_bytes: await gzippedSize(file),
    tables,
    whole,
    parts: { count: parts.length, bytes: partBytes.reduce((a, b) => a + b, 0), largest },
  };
}

/** The bytes of `file` gzipped as publish uploads it (the copy a shim downloads). */
async function gzippedSize(file: string): Promise<number> {
  let bytes = 0;
  await pipeline(createReadStream(file), createGzip({ level: PUBLIC_DB_GZIP_LEVEL }), async (chunks) => {
    for await (const chunk of chunks) bytes += (chunk as Buffer).length;
  });
  return bytes;
}
