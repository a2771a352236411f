/**
 * Authorization requests between the login page and the consent answer. Kept in memory only:
 * a restart in the middle of a login just sends the user back to the application. The request id
 * is a random secret carried in the forms; it lives 10 minutes.
 */
import type { Scope } from './scopes';
import { randomToken } from '../store/secrets';

export interface PendingAuthorization {
  id: string;
  clientId: string;
  /** Where the answer goes (the registered address; spec "Flow" 1). */
  redirectUri: string;
  /** The redirect_uri the request carried, null when omitted (checked again at the token endpoint). */
  redirectUriGiven: string | null;
  scope: Scope[];
  state: string;
  codeChallenge: string | null;
  /** Set once the user has logged in. */
  username: string | null;
  expiresAt: number;
}

const LIFETIME_MS = 10 * 60 * 1000;

export class PendingAuthorizations {
  private readonly byId = new Map<string, PendingAuthorization>();

  create(req: Omit<PendingAuthorization, 'id' | 'username' | 'expiresAt'>, now: number): PendingAuthorization {
    for (const [id, p] of this.byId) if (p.expiresAt <= now) this.byId.delete(id);
    const pending = { ...req, id: randomToken(32), username: null, expiresAt: now + LIFETIME_MS };
    this.byId.set(pending.id, pending);
    return pending;
  }

  get(id: string, now: number): PendingAuthorization | null {
    const p = this.byId.get(id);
    return p && p.expiresAt > now ? p : null;
  }

  /** Answered requests are gone: a second click on Allow does not mint a second code. */
  finish(id: string): void {
    this.byId.delete(id);
  }

  clear(): void {
    this.byId.clear();
  }
}
