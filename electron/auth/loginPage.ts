/** The page the browser shows after the loopback callback: what happened and what to do next. */
export type LoginPageKind = 'success' | 'denied' | 'failed' | 'finished' | 'ignored';

const texts = {
  en: {
    success: [
      'You are logged in',
      'The Label Station is connected to the shipping service. You can close this tab and go back to the station.',
    ],
    denied: [
      'Permission not granted',
      'The Label Station was not given access. Start the login again in the station if this was a mistake.',
    ],
    failed: ['The login did not work', 'Go back to the Label Station and start the login again.'],
    finished: ['This login has already finished', 'Go back to the Label Station.'],
    ignored: [
      'This request was ignored',
      'It does not belong to the login the Label Station is waiting for. A login in progress goes on; finish it in the browser tab the station opened.',
    ],
  },
  cs: {
    success: [
      'Jste přihlášeni',
      'Stanice štítků je připojena ke službě. Tuto kartu můžete zavřít a vrátit se do stanice.',
    ],
    denied: [
      'Oprávnění nebylo uděleno',
      'Stanice štítků nedostala přístup. Pokud jde o omyl, spusťte přihlášení ve stanici znovu.',
    ],
    failed: ['Přihlášení se nezdařilo', 'Vraťte se do stanice štítků a spusťte přihlášení znovu.'],
    finished: ['Toto přihlášení už skončilo', 'Vraťte se do stanice štítků.'],
    ignored: [
      'Tento požadavek byl ignorován',
      'Nepatří k přihlášení, na které stanice štítků čeká. Probíhající přihlášení pokračuje; dokončete ho v kartě prohlížeče, kterou stanice otevřela.',
    ],
  },
} as const;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function loginPage(lang: 'en' | 'cs', kind: LoginPageKind, detail?: string): string {
  const [title, text] = texts[lang][kind];
  const colour = kind === 'success' ? '#1b7f3b' : kind === 'finished' || kind === 'ignored' ? '#555' : '#b3261e';
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}h1{color:${colour}}p.detail{background:#f4f4f4;padding:.75rem;border-radius:4px}</style>
</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${detail ? `<p class="detail">${escapeHtml(detail)}</p>` : ''}</body></html>`;
}
