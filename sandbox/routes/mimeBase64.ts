/**
 * MIME base64 (spec "Common conventions" 8; RFC 2045 6.8): the base64 alphabet in lines of at
 * most 76 characters separated by CRLF. Clients strip the line breaks before decoding.
 */
export const MIME_LINE = 76;

export function mimeBase64(bytes: Buffer): string {
  const flat = bytes.toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < flat.length; i += MIME_LINE) lines.push(flat.slice(i, i + MIME_LINE));
  return lines.join('\r\n');
}
