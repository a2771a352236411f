/**
 * Errors are values with a code a UI can translate and a message a person can act on.
 * Core modules throw StationError; the RPC server turns it into an error envelope. Anything else
 * thrown is a bug: it is logged and reported as `internal` without its stack.
 * The code is one of the registry's (shared/errors/codes.ts): a new code is added there, with its
 * translation, or this does not typecheck. Values the sentence names go in `details`.
 */
import type { StationErrorCode } from '../../shared/errors/codes';

export type { StationErrorCode };

export class StationError extends Error {
  constructor(
    readonly code: StationErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'StationError';
  }
}
