/**
 * A page's own name for one scan it sends (`scan.submit`'s `ref`): 96 random bits, so no two
 * pages' scans share one. `crypto.getRandomValues` works on a page served over plain http from
 * another computer too (randomUUID needs a secure context).
 */
export function newScanRef(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_');
}
