/**
 * Characters a shipping label cannot print (an emoji in a name printed as a box,
 * with no warning). What the labels print with:
 * - the ZPL labels (sandbox/documents/zplLabels.ts, as the service's) write every text field in the
 *   printer's resident scalable font 0 (`^A0`) with `^CI28` (UTF-8). Font 0 (CG Triumvirate Bold
 *   Condensed) maps the characters of the international code pages `^CI` selects — Latin, with
 *   Greek and Cyrillic (ZPL II Programming Guide, `^CI` "Change International Font/Encoding";
 *   "scalable fonts are supported by Unicode character mapping and typically one or more code
 *   pages"); a character the font lacks prints as a box, as the issue saw with an emoji;
 * - the PDF labels embed DejaVu Sans (resources/fonts), which has no emoji and no pictographs.
 * So the label prints what both have: Latin (Basic Latin to Latin Extended-B, with the combining
 * accents a name may be typed with), Greek, Cyrillic, and the common punctuation (dashes, quotes,
 * ellipsis, the euro sign, №). Everything else — emoji, pictographs, dingbats, CJK, other scripts,
 * invisible joiners and variation selectors — is named to the worker before the label prints.
 * The service takes such names (spec "Delivery: request fields": strings), so it is a warning, not
 * a refusal.
 */

/** Code point ranges (inclusive) both label fonts print. */
const PRINTABLE: readonly (readonly [number, number])[] = [
  [0x20, 0x7e], // Basic Latin
  [0xa0, 0x24f], // Latin-1 Supplement, Latin Extended-A and -B
  [0x300, 0x36f], // combining accents (a decomposed "č")
  [0x370, 0x3ff], // Greek
  [0x400, 0x4ff], // Cyrillic
  [0x2010, 0x2027], // dashes, quotes, bullets, ellipsis
  [0x2030, 0x203a], // per mille, primes, angle quotes
  [0x20ac, 0x20ac], // euro sign
  [0x2116, 0x2116], // numero sign
];

const printable = (cp: number) => PRINTABLE.some(([lo, hi]) => cp >= lo && cp <= hi);

/**
 * The characters of `text` the label cannot print, each once, in the order typed. An emoji typed as
 * one symbol ("👍🏽", a flag, a ZWJ family) is named whole, as the worker sees it.
 */
export function unprintableCharacters(text: string): string[] {
  const out: string[] = [];
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    const bad = [...segment].some((ch) => !printable(ch.codePointAt(0)!));
    if (bad && !out.includes(segment)) out.push(segment);
  }
  return out;
}

/** The New shipment fields that print on the label (the names, the address and the note). */
const PRINTED = new Set(['firstname', 'surname', 'contactPerson', 'street', 'streetNumber', 'city', 'ticketNote']);

/** Whether a draft field ("recipient.surname", "recipient.address.city", "ticketNote") prints on the label. */
export function printsOnLabel(field: string): boolean {
  return PRINTED.has(field.slice(field.lastIndexOf('.') + 1));
}
