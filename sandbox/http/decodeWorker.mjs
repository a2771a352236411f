/**
 * A body-decoding worker thread (http/decodePool.ts starts them): parses and copies one body at a
 * time with decodeCore.mjs, off the server's thread. The copy goes back as JSON text, not as a
 * structured clone: V8 rebuilds a clone of many small objects several times slower than JSON.parse
 * reads the same data (a body of 59,000 empty objects: ~27 ms against ~3 ms), and that rebuilding
 * happens on the server's thread. A list (the largest legal bodies are lists of records:
 * `{"deliveries": [...]}`) goes back in parts of about PART_CHARS characters, so the server's thread parses it part by part, giving
 * other requests the loop in between: one JSON.parse of a whole 1 MiB list held it ~20-30 ms.
 */
import { parentPort } from 'node:worker_threads';
import { decodeRecord } from './decodeCore.mjs';

const PART_CHARS = 32 * 1024;

/** A list as JSON texts of consecutive items, each about PART_CHARS long (an item is never split). */
function listParts(list) {
  const parts = [];
  let items = [];
  let size = 0;
  for (const item of list) {
    const json = JSON.stringify(item) ?? 'null';
    items.push(json);
    size += json.length + 1;
    if (size >= PART_CHARS) {
      parts.push(`[${items.join(',')}]`);
      items = [];
      size = 0;
    }
  }
  if (items.length || parts.length === 0) parts.push(`[${items.join(',')}]`);
  return parts;
}

/**
 * The copy as JSON text with its lists left empty (the body itself when it is a list, or the lists
 * among its top-level values: `{"deliveries": [...]}`), and each list's items in parts.
 */
function split(value) {
  if (Array.isArray(value)) return { json: '[]', lists: [['', listParts(value)]] };
  if (value === null || typeof value !== 'object') return { json: JSON.stringify(value), lists: [] };
  const shell = Object.create(null);
  const lists = [];
  for (const [key, v] of Object.entries(value)) {
    if (Array.isArray(v) && v.length > 1) {
      shell[key] = [];
      lists.push([key, listParts(v)]);
    } else shell[key] = v;
  }
  return { json: JSON.stringify(shell), lists };
}

parentPort.on('message', ({ id, format, text, limits }) => {
  let answer;
  try {
    const outcome = decodeRecord(format, text, limits);
    answer = outcome.ok ? { id, ok: true, ...split(outcome.value) } : { id, ...outcome };
  } catch (err) {
    answer = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort.postMessage(answer);
});
