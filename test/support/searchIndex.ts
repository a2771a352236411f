/**
 * What the shipments' text index (FTS5) has written, read from its own structure record: row 10 of
 * its %_data table (sqlite.org/fts5.html, "The %_data table"). The record is a 4-byte cookie, then
 * SQLite varints: the number of levels, of segments, and the write counter, the leaf pages written
 * out of pending terms so far (fts5StructureDecode and fts5IndexAutomerge in SQLite's
 * ext/fts5/fts5_index.c). Every time the index writes its pending terms out it writes at least
 * one leaf page, so the counter rises at least once per such write.
 */
import type { Db } from '../../electron/store/database';

/** A SQLite varint at `at` (big-endian, 7 bits a byte, the ninth byte whole): its value and the next offset. */
function varint(b: Uint8Array, at: number): [bigint, number] {
  let v = 0n;
  for (let k = 0; k < 9; k++) {
    const c = b[at + k]!;
    if (k === 8) return [(v << 8n) | BigInt(c), at + 9];
    v = (v << 7n) | BigInt(c & 0x7f);
    if ((c & 0x80) === 0) return [v, at + k + 1];
  }
  throw new Error('unreachable');
}

/** Leaf pages the index has written out of pending terms since it was made (0 before its first write). */
export function searchIndexLeavesWritten(db: Db): number {
  const block = db.prepare('SELECT block FROM shipment_search_data WHERE id = 10').pluck().get() as Buffer | undefined;
  if (!block) return 0;
  // A version-2 record (FTS5's `secure-delete` and contentless deletes) starts with 0xFFFFFFFF: not this index's.
  if (block.readUInt32BE(0) === 0xffffffff) throw new Error('an FTS5 structure record of version 2');
  let at = 4;
  [, at] = varint(block, at); // levels
  [, at] = varint(block, at); // segments
  const [written] = varint(block, at);
  return Number(written);
}
