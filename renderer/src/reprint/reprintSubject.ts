/**
 * What the reprint question names: the parcels as the worker knows them (the order number or code
 * on the box, and the recipient), never an internal job or record number, with the count declined
 * in the UI language (plural.ts: "1 zásilka", "2 zásilky", "5 zásilek").
 */
import type { Translate } from '../i18n/errors';

export interface NamedParcel {
  /** The order number or code the worker scans or reads on the box. */
  code: string;
  recipient: string | null;
}

/** Parcels named one by one; more than this are counted ("… and 3 more"), so the subtitle stays one line or two. */
export const NAMED_AT_MOST = 3;

const named = (p: NamedParcel) => (p.recipient ? `${p.code} (${p.recipient})` : p.code);

export function reprintSubject(t: Translate, parcels: readonly NamedParcel[]): string {
  if (parcels.length === 1) return t('reprint.why.subject.parcel', { parcel: named(parcels[0]!) });
  const shown = parcels.slice(0, NAMED_AT_MOST).map(named).join(', ');
  const rest = parcels.length - NAMED_AT_MOST;
  const list = rest > 0 ? t('reprint.why.subject.more', { parcels: shown, n: rest }) : shown;
  return t('reprint.why.subject.parcels', { n: parcels.length, parcels: list });
}
