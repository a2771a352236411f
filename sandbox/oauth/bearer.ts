/**
 * The bearer check of every resource but /api/ (spec "Access to resources" 1-3, RFC 6750).
 * The token comes only from the Authorization header. 401 carries
 * `WWW-Authenticate: Bearer realm="ClientApi", error="invalid_token", error_description="..."`
 * (the description in English: RFC 6750 3 allows only ASCII there; the envelope is translated).
 */
import { header, type RequestContext } from '../http/context';
import { envelope, ReplyNow } from '../http/envelope';
import type { Msg } from '../i18n';
import type { Services } from '../services';
import { oauthMessages as m } from './messages';
import type { Scope } from './scopes';

export interface Caller {
  clientId: string;
  username: string;
  companyId: number;
}

function challenge(error: string, message: Msg, params: Record<string, string> = {}, extra = ''): string {
  const description = message.en.replace(/\{(\w+)\}/g, (_, k: string) => params[k] ?? '').replace(/["\\]/g, "'");
  return `Bearer realm="ClientApi", error="${error}", error_description="${description}"${extra}`;
}

function unauthorized(message: Msg): ReplyNow {
  return new ReplyNow(envelope(401, message, { headers: { 'www-authenticate': challenge('invalid_token', message) } }));
}

/** The caller behind the request's token, or a finished 401/403 reply thrown as ReplyNow. */
export function requireScope(ctx: RequestContext, s: Services, scope: Scope): Caller {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header(ctx, 'authorization') ?? '');
  if (!match) throw unauthorized(ctx.query.has('access_token') ? m.tokenInQuery : m.tokenMissing);
  const rec = s.store.oauth.token(match[1]!);
  if (!rec || rec.kind !== 'access') throw unauthorized(m.tokenInvalid);
  if (rec.expiresAt !== null && rec.expiresAt <= s.clock.now().getTime()) throw unauthorized(m.tokenExpired);
  const companyId = s.store.oauth.companyOfUser(rec.username);
  if (companyId === null) throw unauthorized(m.tokenInvalid);
  if (!rec.scope.split(' ').includes(scope)) {
    throw new ReplyNow(
      envelope(403, m.insufficientScope, {
        params: { scope },
        headers: {
          'www-authenticate': challenge('insufficient_scope', m.insufficientScope, { scope }, `, scope="${scope}"`),
        },
      }),
    );
  }
  return { clientId: rec.clientId, username: rec.username, companyId };
}
