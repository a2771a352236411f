/** Clients, users, authorization codes and tokens (spec "Authentication"). Secrets only as hashes. */
import type { Db } from './database';
import { hashSecret, tokenHash, verifySecret } from './secrets';

export interface ClientRecord {
  clientId: string;
  companyName: string;
  logoUrl: string | null;
  webUrl: string | null;
  redirectUri: string;
}

export interface CodeRecord {
  clientId: string;
  username: string;
  scope: string;
  /** The redirect_uri the authorization request carried (null when it relied on the registered one). */
  redirectUri: string | null;
  codeChallenge: string | null;
  expiresAt: number;
  usedAt: number | null;
}

export interface TokenRecord {
  kind: 'access' | 'refresh';
  clientId: string;
  username: string;
  scope: string;
  /** ms since epoch; null = unlimited (refresh tokens, spec "Flow" 7). */
  expiresAt: number | null;
}

interface ClientRow {
  client_id: string;
  secret_hash: string;
  company_name: string;
  logo_url: string | null;
  web_url: string | null;
  redirect_uri: string;
}

const clientOf = (r: ClientRow): ClientRecord => ({
  clientId: r.client_id,
  companyName: r.company_name,
  logoUrl: r.logo_url,
  webUrl: r.web_url,
  redirectUri: r.redirect_uri,
});

export class OAuthRepo {
  constructor(private readonly db: Db) {}

  addClient(c: ClientRecord & { clientSecret: string }, now: number): void {
    this.db
      .prepare(
        'INSERT INTO clients (client_id, secret_hash, company_name, logo_url, web_url, redirect_uri, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(c.clientId, hashSecret(c.clientSecret), c.companyName, c.logoUrl, c.webUrl, c.redirectUri, now);
  }

  client(clientId: string): ClientRecord | null {
    const row = this.db.prepare('SELECT * FROM clients WHERE client_id = ?').get(clientId) as ClientRow | undefined;
    return row ? clientOf(row) : null;
  }

  /** The client when id and secret match (HTTP Basic, spec "Client registration" 3). */
  async authenticateClient(clientId: string, secret: string): Promise<ClientRecord | null> {
    const row = this.db.prepare('SELECT * FROM clients WHERE client_id = ?').get(clientId) as ClientRow | undefined;
    return row && (await verifySecret(secret, row.secret_hash)) ? clientOf(row) : null;
  }

  addUser(username: string, password: string, companyId: number): void {
    this.db
      .prepare('INSERT INTO users (username, password_hash, company_id) VALUES (?, ?, ?)')
      .run(username, hashSecret(password), companyId);
  }

  /** The user's company when the password matches. */
  /** A client's new secret (the embedded sandbox's per-launch demo secret). */
  setClientSecret(clientId: string, secret: string): void {
    this.db.prepare('UPDATE clients SET secret_hash = ? WHERE client_id = ?').run(hashSecret(secret), clientId);
  }

  /** A user's new password (the embedded sandbox's per-launch demo password). */
  setPassword(username: string, password: string): void {
    this.db.prepare('UPDATE users SET password_hash = ? WHERE username = ?').run(hashSecret(password), username);
  }

  async authenticateUser(username: string, password: string): Promise<{ username: string; companyId: number } | null> {
    const row = this.db
      .prepare('SELECT username, password_hash, company_id FROM users WHERE username = ?')
      .get(username) as { username: string; password_hash: string; company_id: number } | undefined;
    return row && (await verifySecret(password, row.password_hash))
      ? { username: row.username, companyId: row.company_id }
      : null;
  }

  companyOfUser(username: string): number | null {
    const row = this.db.prepare('SELECT company_id FROM users WHERE username = ?').get(username) as
      { company_id: number } | undefined;
    return row?.company_id ?? null;
  }

  addCode(code: string, rec: Omit<CodeRecord, 'usedAt'>): void {
    this.db
      .prepare(
        'INSERT INTO auth_codes (code_hash, client_id, username, scope, redirect_uri, code_challenge, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(tokenHash(code), rec.clientId, rec.username, rec.scope, rec.redirectUri, rec.codeChallenge, rec.expiresAt);
  }

  code(code: string): CodeRecord | null {
    const row = this.db.prepare('SELECT * FROM auth_codes WHERE code_hash = ?').get(tokenHash(code)) as
      | {
          client_id: string;
          username: string;
          scope: string;
          redirect_uri: string | null;
          code_challenge: string | null;
          expires_at: number;
          used_at: number | null;
        }
      | undefined;
    return row
      ? {
          clientId: row.client_id,
          username: row.username,
          scope: row.scope,
          redirectUri: row.redirect_uri,
          codeChallenge: row.code_challenge,
          expiresAt: row.expires_at,
          usedAt: row.used_at,
        }
      : null;
  }

  /** Marks a code used; false when it already was (two requests racing for one code). */
  useCode(code: string, now: number): boolean {
    return (
      this.db
        .prepare('UPDATE auth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL')
        .run(now, tokenHash(code)).changes === 1
    );
  }

  addToken(token: string, rec: TokenRecord, fromCode: string | null = null): void {
    this.db
      .prepare(
        'INSERT INTO tokens (token_hash, kind, client_id, username, scope, expires_at, code_hash) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        tokenHash(token),
        rec.kind,
        rec.clientId,
        rec.username,
        rec.scope,
        rec.expiresAt,
        fromCode ? tokenHash(fromCode) : null,
      );
  }

  token(token: string): TokenRecord | null {
    const row = this.db
      .prepare('SELECT kind, client_id, username, scope, expires_at FROM tokens WHERE token_hash = ?')
      .get(tokenHash(token)) as
      | { kind: 'access' | 'refresh'; client_id: string; username: string; scope: string; expires_at: number | null }
      | undefined;
    return row
      ? { kind: row.kind, clientId: row.client_id, username: row.username, scope: row.scope, expiresAt: row.expires_at }
      : null;
  }

  /** RFC 6749 4.1.2: a code used twice revokes the tokens issued from it. */
  revokeTokensOfCode(code: string): number {
    return this.db.prepare('DELETE FROM tokens WHERE code_hash = ?').run(tokenHash(code)).changes;
  }

  /** Spec "Flow" 8: withdrawn permission deletes every token of that client for that user. */
  withdraw(clientId: string, username: string): number {
    return this.db.prepare('DELETE FROM tokens WHERE client_id = ? AND username = ?').run(clientId, username).changes;
  }
}
