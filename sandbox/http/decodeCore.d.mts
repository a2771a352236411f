/** Types of decodeCore.mjs (plain JavaScript so a worker thread can load it without a build). */

/** The limits of http/limits.ts the decoding checks, and the keys that are always lists. */
export interface DecodeLimits {
  maxDepth: number;
  maxListLength: number;
  maxObjectKeys: number;
  maxValues: number;
  maxStringChars: number;
  maxFormPairs: number;
  maxFormKeyDepth: number;
  arrayKeys: string[];
}

export type BodyFormat = 'json' | 'xml' | 'form';

/** Keys of http/messages.ts's httpMessages. */
export type SyntaxMessage = 'bodyNotJson' | 'bodyNotXml' | 'xmlNoRoot' | 'bodyNotObject' | 'bodyNotForm';
export type LimitMessage =
  'stringTooLong' | 'loneSurrogate' | 'bodyTooManyValues' | 'bodyTooDeep' | 'listTooLong' | 'objectTooManyKeys';

export type Refused =
  | { ok: false; kind: 'syntax'; message: SyntaxMessage; detail: string }
  | { ok: false; kind: 'limit'; message: LimitMessage; field: string; value: unknown; params: Record<string, number> };

export interface Copier {
  /** Copies up to `n` more values; true when the copy is complete. Throws past a limit (see refusalOutcome). */
  step(n: number): boolean;
  result(): unknown;
}

export function copier(root: unknown, lists: boolean, limits: DecodeLimits): Copier;
export function refusalOutcome(err: unknown): Refused;
export function parseRecord(
  format: BodyFormat,
  text: string,
  limits: DecodeLimits,
): { ok: true; record: Record<string, unknown>; lists: boolean } | Refused;
export function decodeRecord(
  format: BodyFormat,
  text: string,
  limits: DecodeLimits,
): { ok: true; value: unknown } | Refused;
