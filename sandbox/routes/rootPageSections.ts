/**
 * The catalogue, magic value and test control sections of the root page, rendered from the
 * domain's catalogue itself, so the page can never drift from what the sandbox does.
 */
import { catalogue, type CarrierDef } from '../domain/index';
import { t, type Lang, type Msg } from '../i18n';
import { esc } from '../oauth/pages';
import { rootMessages as m } from './rootPageMessages';

const cell = (s: string) => `<td>${s}</td>`;
const code = (s: string) => `<code>${esc(s)}</code>`;

function table(lang: Lang, heads: Msg[], rows: string[][]): string {
  return `<table><thead><tr>${heads.map((h) => `<th>${esc(t(h, lang))}</th>`).join('')}</tr></thead>
<tbody>${rows.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('\n')}</tbody></table>`;
}

const crowns = (minor: number) => (minor / 100).toFixed(2);

export function magicSection(lang: Lang): string {
  const rows = catalogue.magicValues.map((v) => [code(v.field), code(v.value), esc(t(v.effect, lang))]);
  return `<h2 id="magic">${esc(t(m.magic, lang))}</h2><p>${esc(t(m.magicIntro, lang))}</p>${table(lang, [m.colField, m.colValue, m.colEffect], rows)}`;
}

function carrierRow(c: CarrierDef, lang: Lang): string[] {
  const zpl = c.zpl
    ? c.zpl.sizes.map((s) => (s === c.zpl!.default ? `<b>${esc(s)}</b>` : esc(s))).join(', ')
    : esc(t(m.none, lang));
  return [
    code(c.code),
    esc(c.name),
    zpl,
    esc(t(c.distinguishesCollection ? m.yes : m.no, lang)),
    esc(t(c.unpaid ? m.unpaid : m.paid, lang)),
  ];
}

function carrierDetails(c: CarrierDef, lang: Lang): string {
  const yesNo = (b: boolean) => esc(t(b ? m.yes : m.no, lang));
  const types = c.deliveryTypes.map((d) => [
    code(d.code),
    esc(t(d.name, lang)),
    esc(d.recipientTypes.join(', ')),
    esc(d.countries.join(', ')),
    `phoneRequired: ${yesNo(d.phoneRequired)}<br>dimensionsRequired: ${yesNo(d.dimensionsRequired)}`,
    esc(`${d.maxWeightGrams / 1000} / ${d.maxSideCm}`),
    d.pickUpPlace ? code(d.pickUpPlace.example) : '-',
    d.extraServices.map(code).join(' '),
  ]);
  const services = c.extraServices.map((s) => [
    code(s.code),
    esc(t(s.name, lang)),
    s.arguments.length ? s.arguments.map((a) => `${code(a.identifier)}: ${esc(a.example)}`).join('<br>') : '-',
    s.bans.length ? s.bans.map(code).join(' ') : '-',
    s.priceMinor === null ? esc(t(m.unpaidService, lang)) : esc(crowns(s.priceMinor)),
    s.implicitOnly ? esc(t(m.implicitOnly, lang)) : esc(t(m.no, lang)),
  ]);
  return `<h3 id="carrier-${esc(c.code)}">${esc(c.code)} · ${esc(c.name)}</h3>
<p>${esc(t(c.insurance, lang))} ${esc(c.numberFormat)}</p>
<h4>${esc(t(m.deliveryTypes, lang))}</h4>
${table(lang, [m.colCode, m.colName, m.colRecipients, m.colCountries, m.colRequires, m.colLimits, m.colPickUp, m.extraServices], types)}
<h4>${esc(t(m.extraServices, lang))}</h4>
${table(lang, [m.colCode, m.colName, m.colArguments, m.colBans, m.colPrice, m.colImplicit], services)}`;
}

export function catalogueSection(lang: Lang): string {
  const rows = catalogue.carriers.map((c) => carrierRow(c, lang));
  return `<h2 id="carriers">${esc(t(m.carriers, lang))}</h2>
${table(lang, [m.colCode, m.colName, m.colZpl, m.colCollection, m.colPrices], rows)}
${catalogue.carriers.map((c) => carrierDetails(c, lang)).join('\n')}`;
}

const CONTROLS: Array<[string, string, Msg]> = [
  ['GET /_sandbox/clock', '', { en: 'the sandbox time: { now }', cs: 'čas sandboxu: { now }' }],
  [
    'POST /_sandbox/clock/advance',
    '{"seconds": 3600}',
    {
      en: 'moves the clock: expires codes (90 s) and tokens (3600 s), moves closed shipments along',
      cs: 'posune hodiny: vyprší kódy (90 s) a tokeny (3600 s), zásilky se posunou dál',
    },
  ],
  [
    'POST /_sandbox/tokens',
    '{"clientId": "demo-client", "username": "demo", "scope": "deliveries"}',
    { en: "tokens without the pages (the spec's manual mode)", cs: 'tokeny bez stránek (ruční režim ze specifikace)' },
  ],
  [
    'POST /_sandbox/clients',
    '{"companyName": "My app", "redirectUri": "http://127.0.0.1:9000/cb", "clientSecret": "s3cret-123"}',
    { en: 'registers a client: { clientId }', cs: 'zaregistruje klienta: { clientId }' },
  ],
  [
    'POST /_sandbox/permissions/withdraw',
    '{"clientId": "demo-client", "username": "demo"}',
    { en: 'deletes every token of that client for that user', cs: 'smaže všechny tokeny klienta pro uživatele' },
  ],
  [
    'POST /_sandbox/licence',
    '{"limit": 25}',
    { en: 'licence limit of shipments (null = none)', cs: 'limit licence zásilek (null = žádný)' },
  ],
  [
    'POST /_sandbox/reset',
    '{"seed": "demo"}',
    { en: 'wipes everything and seeds again', cs: 'vše smaže a znovu naplní' },
  ],
  [
    'POST /_sandbox/faults',
    '{"path": "/api/v3/deliveries", "status": 503, "count": 1}',
    {
      en: 'per-path faults: latencyMs, status, reset, hang, carrierReject, count',
      cs: 'poruchy podle cesty: latencyMs, status, reset, hang, carrierReject, count',
    },
  ],
  ['DELETE /_sandbox/faults', '', { en: 'clears all faults', cs: 'zruší všechny poruchy' }],
];

export function adminSection(lang: Lang, base: string, enabled: boolean): string {
  if (!enabled) return `<h2 id="admin">${esc(t(m.admin, lang))}</h2><p>${esc(t(m.adminOff, lang))}</p>`;
  const rows = CONTROLS.map(([call, body, effect]) => {
    const [method, path] = call.split(' ') as [string, string];
    const curl = `curl -s${method === 'GET' ? '' : ` -X ${method}`}${body ? ` -H 'content-type: application/json' -d '${body}'` : ''} ${base}${path}`;
    return [code(call), esc(t(effect, lang)), `<pre>${esc(curl)}</pre>`];
  });
  return `<h2 id="admin">${esc(t(m.admin, lang))}</h2><p>${esc(t(m.adminIntro, lang))}</p>${table(lang, [m.colCall, m.colEffect, m.colExample], rows)}`;
}
