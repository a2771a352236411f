/**
 * Content negotiation (spec "Common conventions" 1): `Accept` picks the response format,
 * `Content-type` says how the request body is written. Three formats, nothing else.
 */
export type Format = 'json' | 'xml' | 'form';

export const mediaTypeOf: Record<Format, string> = {
  json: 'application/json',
  xml: 'application/xml',
  form: 'application/x-www-form-urlencoded',
};

// A Map, not an object literal: a header naming `constructor` must not find Object's.
const formatOfMedia = new Map<string, Format>([
  ['application/json', 'json'],
  ['application/xml', 'xml'],
  // text/xml is the older name of the same format; accepting it costs nothing.
  ['text/xml', 'xml'],
  ['application/x-www-form-urlencoded', 'form'],
]);

interface MediaRange {
  type: string;
  q: number;
  order: number;
}

function parseAccept(header: string): MediaRange[] {
  return header
    .split(',')
    .map((part, order) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const qParam = params.find((p) => p.startsWith('q='));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      return { type, q: Number.isFinite(q) ? q : 0, order };
    })
    .filter((r) => r.type !== '' && r.q > 0);
}

/**
 * The response format for an `Accept` header: the supported type with the highest q (ties: the
 * first listed). No header, `*` + `/*` or `application/*` -> JSON. null = nothing acceptable (406).
 */
export function negotiateFormat(accept: string | undefined): Format | null {
  if (accept === undefined || accept.trim() === '') return 'json';
  const ranges = parseAccept(accept).sort((a, b) => b.q - a.q || a.order - b.order);
  for (const r of ranges) {
    const exact = formatOfMedia.get(r.type);
    if (exact) return exact;
    if (r.type === '*/*' || r.type === 'application/*') return 'json';
  }
  return null;
}

/** The media type of a `Content-type` header without parameters, lower case ('' when absent). */
export function mediaTypeOfHeader(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The request body format for a `Content-type` header; null = unsupported. */
export function requestFormat(contentType: string | undefined): Format | null {
  return formatOfMedia.get(mediaTypeOfHeader(contentType)) ?? null;
}
