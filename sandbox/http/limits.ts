/**
 * Limits on what one request may cost (the spec sets none; these are the sandbox's choices,
 * listed in sandbox/README.md "Limits on hostile input"). Each is checked before the expensive
 * step it protects: the body size while it is read, the number of form pairs and XML tags before
 * the parser runs, nesting depth, list length, string length and value count while the parsed
 * body is copied into own-property (null-prototype) objects.
 */

/** Request body bytes; larger -> 413 (the rest of the body is read and dropped, never buffered). */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Bytes of an OAuth form (login, consent, registration, token request). They hold a handful of
 * short fields; parsing the 1 MiB every other body may have costs 35-45 ms of event loop
 * (bench/sandboxBodyParse.bench.ts), against a target of 20 ms. Larger -> refused unparsed.
 */
export const MAX_OAUTH_FORM_BYTES = 16 * 1024;
/** Nesting of objects and lists in a body (a shipment needs 5: deliveries/extraServices/arguments). */
export const MAX_DEPTH = 12;
/** Elements of one list (deliveries is further limited to 1000 by the routes). */
export const MAX_LIST_LENGTH = 2000;
/** Keys of one object. */
export const MAX_OBJECT_KEYS = 200;
/** Scalars and containers in a whole body. */
export const MAX_VALUES = 60_000;
/** Characters of one string or key. */
export const MAX_STRING_CHARS = 4000;
/** key=value pairs of a form body, counted before qs runs; qs costs up to ~30 µs a pair (deep keys), so at most ~150 ms. */
export const MAX_FORM_PAIRS = 5_000;
/** Brackets of one form key (qs `depth`, with `strictDepth`). */
export const MAX_FORM_KEY_DEPTH = 8;
/** `<` characters (tags) of an XML body, counted before parsing; validating and parsing cost ~8 µs a tag, so at most ~170 ms. */
export const MAX_XML_TAGS = 20_000;

/** errors[].value echoes: nesting, list and object entries, string characters. */
export const ECHO_MAX_DEPTH = 3;
export const ECHO_MAX_ENTRIES = 20;
export const ECHO_MAX_CHARS = 200;
