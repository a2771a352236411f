/**
 * Why a waiting scan waits, as things are now. A scan stores the reason it met when it began to
 * wait (the service down, a login needed); the session's usable state since may say otherwise
 * (logged in again while the service went down, or the other way round). What the screen says of
 * a waiting scan follows the usable state first, the stored reason only where that says nothing.
 */
import type { SessionUsable } from '../../../../shared/contract/status';

/** Reasons that say the active company must log in (the core's and the service client's codes). */
const LOGIN_REASONS = new Set(['login_required', 'service_login_required', 'service_auth', 'logged_out']);

/**
 * Does a waiting scan wait for a login? The session's usable state is the truth now (a scan that
 * met an outage may be waiting for a login since, and back); without it, the scan's own reason.
 */
export function waitsForLogin(reasonCode: string | null | undefined, usable: SessionUsable | undefined): boolean {
  if (usable === 'login_needed') return true;
  if (usable === 'unreachable') return false;
  return !!reasonCode && LOGIN_REASONS.has(reasonCode);
}

export interface WaitingReason {
  code: string;
  message: string;
}

/** The reason to show for a waiting scan now: a login, the service unreachable, or the one it stored. */
export function waitingReason(
  stored: WaitingReason | null | undefined,
  usable: SessionUsable | undefined,
): WaitingReason | null {
  if (waitsForLogin(stored?.code, usable)) return { code: 'login_required', message: stored?.message ?? '' };
  // Stored "log in", but the service does not answer now: that is what it waits for.
  if (usable === 'unreachable' && stored && LOGIN_REASONS.has(stored.code))
    return { code: 'service_unreachable', message: '' };
  return stored ?? null;
}
