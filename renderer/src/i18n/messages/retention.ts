/** Texts of retention (keep): Settings → Data kept, and its line on the Status screen. */
import { defineMessages } from '../defineMessages';

export const retention = defineMessages({
  en: {
    'settings.tab.retention': 'Data kept',
    'retention.title': 'How long this desk keeps its data',
    'retention.intro':
      'Old data leaves in the background, a little at a time, without holding up a scan. Nothing unfinished, uncertain or unconfirmed is ever removed. 0 keeps it forever.',
    'retention.labelsDays': 'Labels of printed jobs, kept labels, camera photos and finished shipments (days)',
    // Retention (prune): the shipments cache follows the labels window.
    'retention.labelsHint':
      'A reprint from Shipments fetches older labels from the service again. Older delivered, returned and cancelled shipments leave the Shipments list; scanned again, they are fetched from the service.',
    'retention.historyDays': 'Journal, scan log and finished print jobs (days)',
    'retention.historyHint': 'A shipment’s history and the statistics reach back this far.',
    'retention.labelsRange': 'Whole days: 0 (keep forever) or 7 to 3650.',
    'retention.historyRange': 'Whole days: 0 (keep forever) or 30 to 3650.',
    'status.retention': 'Data kept',
    'retention.status.labels': 'Labels kept {n} days',
    'retention.status.labels.one': 'Labels kept {n} day',
    'retention.status.labelsForever': 'Labels kept forever',
    'retention.status.history': 'journal {n} days',
    'retention.status.history.one': 'journal {n} day',
    'retention.status.historyForever': 'journal forever',
    'retention.status.line': '{labels}, {history}; {size} in the data folder',
    'retention.status.photos': ', of which {n} camera photos: {size}',
    'retention.status.photos.one': ', of which {n} camera photo: {size}',
  },
  cs: {
    'settings.tab.retention': 'Uchovávání dat',
    'retention.title': 'Jak dlouho si tento stůl data uchovává',
    'retention.intro':
      'Stará data odcházejí na pozadí, po malých částech, a skenování nezdrží. Nic nedokončeného, nejistého ani nepotvrzeného se nikdy neodstraní. 0 = uchovávat navždy.',
    'retention.labelsDays': 'Štítky vytištěných úloh, uložené štítky, fotografie z kamery a vyřízené zásilky (dny)',
    // Retention (prune): the shipments cache follows the labels window.
    'retention.labelsHint':
      'Dotisk ze Zásilek si starší štítky znovu stáhne ze služby. Starší doručené, vrácené a zrušené zásilky ze seznamu Zásilek odejdou; po naskenování se znovu načtou ze služby.',
    'retention.historyDays': 'Deník, záznam skenů a dokončené tiskové úlohy (dny)',
    'retention.historyHint': 'Tak daleko sahá historie zásilky a statistiky.',
    'retention.labelsRange': 'Celé dny: 0 (uchovávat navždy) nebo 7 až 3650.',
    'retention.historyRange': 'Celé dny: 0 (uchovávat navždy) nebo 30 až 3650.',
    'status.retention': 'Uchovávání dat',
    'retention.status.labels': 'Štítky se uchovávají {n} dní',
    'retention.status.labels.one': 'Štítky se uchovávají {n} den',
    'retention.status.labels.few': 'Štítky se uchovávají {n} dny',
    'retention.status.labels.many': 'Štítky se uchovávají {n} dne',
    'retention.status.labelsForever': 'Štítky se uchovávají navždy',
    'retention.status.history': 'deník {n} dní',
    'retention.status.history.one': 'deník {n} den',
    'retention.status.history.few': 'deník {n} dny',
    'retention.status.history.many': 'deník {n} dne',
    'retention.status.historyForever': 'deník navždy',
    'retention.status.line': '{labels}, {history}; {size} ve složce dat',
    'retention.status.photos': ', z toho {n} fotografií z kamery: {size}',
    'retention.status.photos.one': ', z toho {n} fotografie z kamery: {size}',
    'retention.status.photos.few': ', z toho {n} fotografie z kamery: {size}',
    'retention.status.photos.many': ', z toho {n} fotografie z kamery: {size}',
  },
});
