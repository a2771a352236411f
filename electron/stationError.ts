/**
 * Errors are values with a code a UI can translate and a message a person can act on.
 * Core modules throw StationError; the RPC server turns it into an error envelope. Anything else
 * thrown is a bug: it is logged and reported as `internal` without its stack.
 */
export class StationError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'StationError';
  }
}
