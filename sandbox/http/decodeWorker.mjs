/**
 * A body-decoding worker thread (http/decodePool.ts starts them): parses and copies one body at a
 * time with decodeCore.mjs, off the server's thread. The copy goes back as JSON text, not as a
 * structured clone: V8 rebuilds a clone of many small objects several times slower than JSON.parse
 * reads the same data (a body of 59,000 empty objects: ~27 ms against ~3 ms), and that rebuilding
 * happens on the server's thread.
 */
import { parentPort } from 'node:worker_threads';
import { decodeRecord } from './decodeCore.mjs';

parentPort.on('message', ({ id, format, text, limits }) => {
  let answer;
  try {
    const outcome = decodeRecord(format, text, limits);
    answer = outcome.ok ? { id, ok: true, json: JSON.stringify(outcome.value) } : { id, ...outcome };
  } catch (err) {
    answer = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort.postMessage(answer);
});
