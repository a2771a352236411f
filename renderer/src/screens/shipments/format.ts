/** Small display helpers shared by the Shipments, Tracking and Queue screens. */
import type { MessageKey } from '../../i18n/en';
import type { T } from '../../i18n';
import { stateFamily } from '../../../../shared/contract/shipments';
import { formatLocalDateTime } from '../../../../shared/dateTime';
import { formatAmount, formatQuantity } from '../../format/decimal';

/** The worker's name for a shipment state (spec "States and transitions"), in the UI language. */
export function stateName(t: T, state: number | null): string {
  if (state === null) return t('shipments.none');
  const family = stateFamily(state);
  return family ? t(`shipments.state.${family}`) : t('shipments.state.unknown', { state });
}

/** A CSS class per state family, so a cancelled or returned shipment never looks like a good one. */
export function stateClass(state: number | null): string {
  const family = state === null ? null : stateFamily(state);
  return family ? `st-${family}` : '';
}

/** `seconds` for a parcel's steps, which often fall in one minute. */
export function formatDateTime(iso: string | null, language: string, o: { seconds?: boolean } = {}): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  // The year in full (the short date style writes "26.11.26" in Czech).
  return formatLocalDateTime(d, language, o);
}

export function formatDate(iso: string | null, language: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleDateString(language === 'cs' ? 'cs-CZ' : 'en-GB');
}

/** Money with its currency, or a quantity (weight) without one, in the UI's separators; never through a float. */
export function formatDecimal(value: string | null, currency: string | null, language: string): string {
  if (value === null) return '—';
  const lang = language === 'cs' ? 'cs' : 'en';
  return currency ? `${formatAmount(value, lang)} ${currency}` : formatQuantity(value, lang);
}

/** Extra service codes the spec names ("Insert": the codes that appear in the interface), with their arguments. */
const extraCodes = new Set([
  'email_advice_unload',
  'sms_advice_unload',
  'cod',
  'direct_delivery',
  'back_delivery',
  'guaranteed_24',
  'addressee_only',
  'day_definite',
  'sms_service',
]);
const extraArgs = new Set(['email', 'phone', 'date']);

/** An extra service by its name in the UI language; a code the station does not know as it is. */
export function extraName(t: T, code: string): string {
  return extraCodes.has(code) ? t(`shipments.extra.${code}` as MessageKey) : code;
}

export function extraArgName(t: T, key: string): string {
  return extraArgs.has(key) ? t(`shipments.extraArg.${key}` as MessageKey) : key;
}
