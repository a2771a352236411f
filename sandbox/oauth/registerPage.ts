/**
 * The registration page (spec "Client registration" 1-2): GET shows the form, POST registers.
 * With a secret (the sandbox a station embeds), both answer only a request carrying it, as the
 * test controls do: any other local program or page cannot add clients to the station's sandbox.
 */
import { holdsSecret } from '../admin/controls';
import { t } from '../i18n';
import type { RequestContext } from '../http/context';
import type { RawReply } from '../http/envelope';
import { MAX_OAUTH_FORM_BYTES } from '../http/limits';
import type { Router } from '../http/router';
import type { Services } from '../services';
import { oauthMessages as m } from './messages';
import { esc, page, registerPage, type RegisterForm } from './pages';
import { checkRegistration, registerClient } from './registration';

const html = (status: number, body: string): RawReply => ({
  kind: 'raw',
  status,
  body,
  contentType: 'text/html; charset=UTF-8',
  headers: { 'cache-control': 'no-store' },
});
const EMPTY: RegisterForm = { companyName: '', logoUrl: '', webUrl: '', redirectUri: '' };

function submit(ctx: RequestContext, s: Services): RawReply {
  if (ctx.rawBody.length > MAX_OAUTH_FORM_BYTES)
    return html(
      413,
      registerPage(ctx.lang, EMPTY, [t(m.formTooLarge, ctx.lang, { limit: MAX_OAUTH_FORM_BYTES })], null),
    );
  const form = new URLSearchParams(ctx.rawBody.toString('utf8'));
  const values: RegisterForm = {
    companyName: form.get('companyName') ?? '',
    logoUrl: form.get('logoUrl') ?? '',
    webUrl: form.get('webUrl') ?? '',
    redirectUri: form.get('redirectUri') ?? '',
  };
  const reg = { ...values, clientSecret: form.get('clientSecret') ?? '' };
  const problems = checkRegistration(reg);
  if (problems.length > 0)
    return html(
      422,
      registerPage(
        ctx.lang,
        values,
        problems.map((p) => t(p.message, ctx.lang, p.params)),
        null,
      ),
    );
  const clientId = registerClient(s.store, reg, s.clock.now());
  return html(201, registerPage(ctx.lang, EMPTY, [], clientId));
}

export function addRegisterRoutes(router: Router, s: Services, secret?: string): void {
  const refused = (ctx: RequestContext) =>
    secret !== undefined && !holdsSecret(ctx, secret)
      ? html(
          403,
          page(
            ctx.lang,
            m.pageTitleRegister,
            `<p class="error" role="alert">${esc(t(m.registerNeedsSecret, ctx.lang))}</p>`,
          ),
        )
      : null;
  router.add('GET', '/register', (ctx) => refused(ctx) ?? html(200, registerPage(ctx.lang, EMPTY, [], null)), {
    api: false,
  });
  router.add('POST', '/register', (ctx) => refused(ctx) ?? submit(ctx, s), { api: false });
}
