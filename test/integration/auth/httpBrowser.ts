/**
 * A browser made of fetch: follows redirects and fills the plain HTML forms of the sandbox's
 * login and consent pages (spec "Flow" 2), the way a user would. Real HTTP, no mocks.
 */
export interface BrowserVisit {
  /** Every URL loaded, in order. */
  visited: string[];
  /** The last page's status and HTML (the station's page after the loopback callback). */
  finalStatus: number;
  finalHtml: string;
}

function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([a-zA-Z_-]+)\s*=\s*"([^"]*)"/g))
    out[m[1]!] = m[2]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
  return out;
}

/** The first <form> with its action, method and the fields a user would send. */
function formOf(html: string, fill: Record<string, string>, button?: { name: string; value: string }) {
  const m = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!m) return null;
  const a = attrs(m[1]!);
  const fields = new URLSearchParams();
  for (const input of m[2]!.matchAll(/<input\b[^>]*>/gi)) {
    const i = attrs(input[0]);
    if (!i.name) continue;
    fields.set(i.name, fill[i.name] ?? i.value ?? '');
  }
  if (button) fields.set(button.name, button.value);
  return { action: a.action ?? '', method: (a.method ?? 'get').toUpperCase(), fields };
}

export async function followLogin(
  startUrl: string,
  o: {
    username: string;
    password: string;
    decision?: 'allow' | 'deny';
    beforeCallback?: (callbackUrl: string) => Promise<string | void> | string | void;
  },
): Promise<BrowserVisit> {
  const visited: string[] = [];
  let url = startUrl;
  let init: RequestInit = {};
  for (let step = 0; step < 10; step++) {
    visited.push(url);
    const res = await fetch(url, { ...init, redirect: 'manual' });
    const html = await res.text();
    if (res.status >= 300 && res.status < 400) {
      let next = new URL(res.headers.get('location')!, url).toString();
      if (next.startsWith('http://127.0.0.1') && !next.startsWith(new URL(startUrl).origin)) {
        next = (await o.beforeCallback?.(next)) || next;
      }
      url = next;
      init = {};
      continue;
    }
    const form = formOf(
      html,
      { username: o.username, password: o.password },
      /name="decision"/.test(html) ? { name: 'decision', value: o.decision ?? 'allow' } : undefined,
    );
    if (!form || new URL(url).origin !== new URL(startUrl).origin)
      return { visited, finalStatus: res.status, finalHtml: html };
    url = new URL(form.action, url).toString();
    init = {
      method: form.method,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.fields.toString(),
    };
  }
  throw new Error(`login did not finish: ${visited.join(' -> ')}`);
}
