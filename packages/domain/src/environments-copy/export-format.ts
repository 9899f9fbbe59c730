/**
 * The portable file of `admin environment export` / `import`: gzip of newline-delimited JSON,
 * one record a line, in this order:
 *
 *   {"format":"bo-environment","version":1,"environment":{"id","name"},"schema":"<last migration>",
 *    "exportedAt":"…","tables":[{"name","rows"}]}
 *   {"table":"<name>","row":{…}}            every row of every copied table, parents first,
 *                                           as PostgreSQL's row_to_json writes it (ids as in the source)
 *   {"file":"<storage key>","offset":n,"data":"<base64>"}   the files, in chunks of at most 256 KiB
 *   {"end":true,"rows":n,"files":n}         last: a file without it is truncated and is refused
 *
 * Files travel as base64 chunk records, not a tar framing: one line format to read and check,
 * and a reader never holds more than one chunk.
 */
export const FORMAT = 'bo-environment';
export const FORMAT_VERSION = 1;
export const FILE_CHUNK_BYTES = 256 * 1024;

export interface ExportHeader {
  format: typeof FORMAT;
  version: number;
  environment: { id: string; name: string };
  schema: string;
  exportedAt: string;
  tables: { name: string; rows: number }[];
}

export type ExportRecord =
  | { table: string; row: Record<string, unknown> }
  | { file: string; offset: number; data: string }
  | { end: true; rows: number; files: number };

export function isHeader(value: unknown): value is ExportHeader {
  const v = value as Partial<ExportHeader> | null;
  return typeof v === 'object' && v !== null && v.format === FORMAT && typeof v.version === 'number';
}
