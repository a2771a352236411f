/** The sandbox's root page (issue 4 point 8): where a developer starts without reading code. */
import type { Msg } from '../i18n';
import type { Router } from '../http/router';
import { esc, page } from '../oauth/pages';
import { DEMO } from '../seed';

export const rootMessages = {
  title: { en: 'Parcel Shipping Sandbox', cs: 'Sandbox přepravní služby' },
} satisfies Record<string, Msg>;

export function addRootPage(router: Router, admin: boolean): void {
  router.add(
    'GET',
    '/',
    (ctx) => {
      const row = (k: string, v: string) => `<tr><th align="left">${esc(k)}</th><td><code>${esc(v)}</code></td></tr>`;
      const authorize = `/connect/authorize/?response_type=code&client_id=${DEMO.clientId}&scope=${encodeURIComponent(DEMO.scope)}&state=try-me`;
      const body = `<p>${esc(ctx.baseUrl)}: an offline implementation of the parcel shipping API (OAuth 2.0, shipments, formats JSON/XML/form).</p>
<table>
${row('user / password', `${DEMO.username} / ${DEMO.password}`)}
${row('second company user', `${DEMO.otherUsername} / ${DEMO.otherPassword}`)}
${row('client_id', DEMO.clientId)}
${row('client_secret', DEMO.clientSecret)}
${row('redirect_uri', DEMO.redirectUri)}
${row('scope', DEMO.scope)}
</table>
<ul>
<li><a href="${esc(authorize)}">Try the login and consent pages</a></li>
<li><a href="/register">Register a client</a></li>
<li><a href="/api/">GET /api/</a> (no authentication)</li>
${admin ? '<li>Test controls: POST /_sandbox/clock/advance, /_sandbox/tokens, /_sandbox/clients, /_sandbox/permissions/withdraw, /_sandbox/licence, /_sandbox/reset, /_sandbox/faults (see sandbox/README.md)</li>' : ''}
</ul>`;
      return { kind: 'raw', status: 200, body: page(ctx.lang, rootMessages.title, body), contentType: 'text/html; charset=UTF-8' };
    },
    { api: false },
  );
}
