/**
 * ZPL label bytes as the store keeps them: deflated (raw DEFLATE, RFC 1951), with their length
 * before it, in the kept labels (`label_parts`) and the print jobs' bytes (`print_job_bytes`). A
 * ZPL label is text, about half of it repeats (field commands, positions, font names): a year at
 * 2,000 labels a day keeps the last 90 days of both, some 470 MB as they come. Bytes that do not
 * get smaller (a PDF is deflated inside already) are kept as they are, `size` NULL; so are rows
 * written before migration 27.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export interface PackedBytes {
  bytes: Buffer;
  /** The length before deflating; null when `bytes` are the label's own. */
  size: number | null;
}

export function packBytes(bytes: Buffer): PackedBytes {
  const deflated = deflateRawSync(bytes);
  return deflated.length < bytes.length ? { bytes: deflated, size: bytes.length } : { bytes, size: null };
}

export function unpackBytes(row: PackedBytes): Buffer {
  return row.size === null ? row.bytes : inflateRawSync(row.bytes);
}
