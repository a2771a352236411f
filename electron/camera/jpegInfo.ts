/**
 * What the core checks of a photo a page sends (the page is untrusted): a JPEG file (Start Of Image
 * FF D8, segments, a frame header, End Of Image FF D9) and its real size read from the frame header
 * (ITU-T T.81 § B.2.2), so nothing the page claims about the picture is stored unchecked.
 */
export type JpegCheck = { ok: true; width: number; height: number } | { ok: false; reason: string };

/** SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC): the markers whose segment gives the frame's size. */
const isFrameHeader = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

export function checkJpeg(b: Buffer): JpegCheck {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return { ok: false, reason: 'no JPEG start' };
  if (b[b.length - 2] !== 0xff || b[b.length - 1] !== 0xd9) return { ok: false, reason: 'no JPEG end' };
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return { ok: false, reason: 'broken segment' };
    const marker = b[i + 1]!;
    // Fill bytes before a marker.
    if (marker === 0xff) {
      i++;
      continue;
    }
    const len = b.readUInt16BE(i + 2);
    if (len < 2 || i + 2 + len > b.length) return { ok: false, reason: 'broken segment' };
    if (isFrameHeader(marker)) {
      if (len < 7) return { ok: false, reason: 'broken frame header' };
      const height = b.readUInt16BE(i + 5);
      const width = b.readUInt16BE(i + 7);
      if (!width || !height) return { ok: false, reason: 'no size' };
      return { ok: true, width, height };
    }
    // Start Of Scan before any frame header: no picture size.
    if (marker === 0xda) break;
    i += 2 + len;
  }
  return { ok: false, reason: 'no frame header' };
}
