/**
 * Entity tags (spec "GET /api/", "GET /api/v3/deliveries", "PUT"). A shipment list's tag is
 * derived from the shipments' ids and versions plus the selected `fields`, not from the bytes:
 * the same data in JSON, XML or form carries the same tag, so an `If-Match` taken from a GET in
 * one format works for a PUT in another (responses say `Vary: Accept, Accept-Language`).
 */
import { createHash } from 'node:crypto';

export function etagOf(...parts: string[]): string {
  return `"${createHash('sha1').update(parts.join('\u0000')).digest('hex').slice(0, 32)}"`;
}

function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((s) => s.trim().replace(/^W\//, ''))
    .filter(Boolean);
}

/** If-None-Match (weak comparison, RFC 9110 13.1.2): true when the client's copy is current. */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.trim() === '*' || tagsOf(header).includes(etag);
}

/** If-Match (strong comparison, RFC 9110 13.1.1): true when the request may proceed. */
export function ifMatchPasses(header: string | undefined, etag: string): boolean {
  if (header === undefined || header.trim() === '') return true;
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .map((s) => s.trim())
    .includes(etag);
}
