/**
 * The sandbox's root page: where a developer integrating offline starts
 * without reading code: demo credentials, the OAuth pages, client registration, curl calls in
 * the three formats, the carrier catalogue, the magic values and the test controls.
 * Plain server-rendered HTML; every value is escaped.
 */
import type { Router } from '../http/router';
import { t, type Lang } from '../i18n';
import { esc } from '../oauth/pages';
import { DEMO } from '../seed';
import { rootMessages as m } from './rootPageMessages';
import { adminSection, catalogueSection, magicSection } from './rootPageSections';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1d2430;line-height:1.4}
h1{font-size:1.6rem}h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #ccd}h3{font-size:1.05rem;margin-top:1.4rem}h4{font-size:.95rem;margin:.8rem 0 .3rem}
table{border-collapse:collapse;margin:.4rem 0;font-size:.88rem}th,td{border:1px solid #ccd;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f0f2f8}code{background:#eef;padding:0 .2rem}pre{background:#f6f7fb;border:1px solid #dde;padding:.5rem;overflow-x:auto;font-size:.82rem;margin:.3rem 0}
nav a{margin-right:1rem}`;

function row(k: string, v: string): string {
  return `<tr><th>${esc(k)}</th><td><code>${esc(v)}</code></td></tr>`;
}

function curlExamples(base: string): string {
  const auth = `-H "Authorization: Bearer $T"`;
  return [
    `T=$(curl -s -H 'content-type: application/json' -d '{"clientId":"${DEMO.clientId}","username":"${DEMO.username}","scope":"${DEMO.scope}"}' ${base}/_sandbox/tokens | sed 's/.*"access_token":"\\([a-z0-9]*\\)".*/\\1/')`,
    `curl -s ${auth} -H 'Accept: application/json' "${base}/api/v3/deliveries?deliveryId=1001,1002&fields=deliveryId,deliveryState"`,
    `curl -s ${auth} -H 'Accept: application/xml' "${base}/api/v2/collection-places"`,
    `curl -s ${auth} -H 'Accept: application/x-www-form-urlencoded' "${base}/api/v3/deliveries?agent=PPR"`,
    `curl -s ${auth} -H 'content-type: application/json' -X PATCH ${base}/api/v3/deliveries -d '{"deliveries":[{"deliveryId":1001,"closed":true}]}'`,
    `curl -s ${auth} "${base}/api/v3/deliveries/tickets?deliveryId=1001&position=1&printFormat=default"`,
    `curl -s ${auth} "${base}/api/v3/deliveries/zpl?deliveryId=1001&size=10x17"`,
    `curl -s ${auth} -H 'content-type: application/json' -X POST ${base}/api/v2/collection-protocols -d '{"agent":"NP","collectionPlace":"WH-PRAHA"}'`,
  ]
    .map((c) => `<pre>${esc(c)}</pre>`)
    .join('\n');
}

/**
 * What the root page may show: `publicDemo` false when the demo company's secrets are this launch's
 * own (the sandbox a station embeds), which the page then never shows; `registrationNeedsSecret`
 * when /register answers only the admin secret's holder.
 */
interface RootPageOptions {
  admin: boolean;
  publicDemo: boolean;
  registrationNeedsSecret: boolean;
}

export function rootPageHtml(lang: Lang, base: string, opts: RootPageOptions): string {
  const { admin } = opts;
  const hidden = t(m.perLaunchSecret, lang);
  const secret = (value: string) => (opts.publicDemo ? value : hidden);
  const authorize = `${base}/connect/authorize/?response_type=code&client_id=${encodeURIComponent(DEMO.clientId)}&scope=${encodeURIComponent(DEMO.scope)}&state=try-me`;
  const exchange = `curl -s -u ${DEMO.clientId}:${opts.publicDemo ? DEMO.clientSecret : '$CLIENT_SECRET'} -H 'Content-type: application/x-www-form-urlencoded' \\
  --data-urlencode grant_type=authorization_code --data-urlencode "code=$CODE" \\
  --data-urlencode redirect_uri=${DEMO.redirectUri} --data-urlencode "scope=${DEMO.scope}" ${base}/connect/token/`;
  const register = `curl -s -H 'content-type: application/json' -d '{"companyName":"My app","redirectUri":"http://127.0.0.1:9000/cb","clientSecret":"s3cret-123"}' ${base}/_sandbox/clients`;
  const title = esc(t(m.title, lang));
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>${STYLE}</style></head><body>
<h1>${title}</h1>
<p>${esc(t(m.intro, lang, { base }))}</p>
<nav><a href="#credentials">${esc(t(m.credentials, lang))}</a><a href="#oauth">${esc(t(m.oauth, lang))}</a><a href="#register">${esc(t(m.register, lang))}</a><a href="#api">${esc(t(m.api, lang))}</a><a href="#magic">${esc(t(m.magic, lang))}</a><a href="#carriers">${esc(t(m.carriers, lang))}</a><a href="#admin">${esc(t(m.admin, lang))}</a></nav>
<h2 id="credentials">${esc(t(m.credentials, lang))}</h2>
<table>
${row('user / password', `${DEMO.username} / ${secret(DEMO.password)}  (${DEMO.companyName})`)}
${row('second company user / password', `${DEMO.otherUsername} / ${secret(DEMO.otherPassword)}  (${DEMO.otherCompanyName})`)}
${row('client_id', DEMO.clientId)}
${row('client_secret', secret(DEMO.clientSecret))}
${row('redirect_uri', DEMO.redirectUri)}
${row('scope', DEMO.scope)}
</table>
<h2 id="oauth">${esc(t(m.oauth, lang))}</h2>
<p><a id="authorize" href="${esc(authorize)}">${esc(t(m.authorizeLink, lang))}</a></p>
<p>${esc(t(m.oauthIntro, lang))}</p>
<pre>${esc(exchange)}</pre>
<h2 id="register">${esc(t(m.register, lang))}</h2>
<p>${esc(t(m.registerIntro, lang))} <a href="/register">${esc(t(m.registerLink, lang))}</a></p>
${opts.registrationNeedsSecret ? `<p>${esc(t(m.registerNeedsSecret, lang))}</p>` : ''}
${admin ? `<pre>${esc(register)}</pre>` : ''}
<h2 id="api">${esc(t(m.api, lang))}</h2>
<p>${esc(t(m.apiIntro, lang))} <a href="/api/">GET /api/</a></p>
<p>${esc(t(m.referenceIntro, lang))} <a id="reference" href="/reference">${esc(t(m.reference, lang))}</a>, <a href="/openapi.yaml">/openapi.yaml</a>, <a href="/openapi.json">/openapi.json</a></p>
${curlExamples(base)}
${magicSection(lang)}
${catalogueSection(lang)}
${adminSection(lang, base, admin)}
</body></html>`;
}

export function addRootPage(router: Router, opts: RootPageOptions): void {
  router.add(
    'GET',
    '/',
    (ctx) => ({
      kind: 'raw',
      status: 200,
      body: rootPageHtml(ctx.lang, ctx.baseUrl, opts),
      contentType: 'text/html; charset=UTF-8',
    }),
    { api: false },
  );
}
