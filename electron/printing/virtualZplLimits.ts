/** The virtual printer's bounds (see the header of ./virtualZplPrinter.ts for why each exists). */

/** Most bytes one ^XA..^XZ format may hold, and one connection may keep unparsed. */
export const MAX_FORMAT_BYTES = 4 * 1024 * 1024;
export const MAX_PENDING_BYTES = 4 * 1024 * 1024;
/** The receive buffer: formats received and not yet printed (a ZD421's ~HI reports 8192 KB of memory). */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** Answers written and not yet read by the other side, before it stops reading that connection. */
export const MAX_UNSENT_ANSWER_BYTES = 64 * 1024;
/** Connections open at once; more are closed at once (a printer's port serves one host at a time). */
export const MAX_CONNECTIONS = 16;
