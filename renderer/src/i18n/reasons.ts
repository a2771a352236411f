/** A reason the core gives, in the UI language when its code is known (messages/reasons.ts); its own words otherwise. */
import type { Translate } from './errors';
import type { MessageKey } from './en';
import { reasons } from './messages/reasons';

const known = new Set(Object.keys(reasons.en).map((k) => k.slice('reason.'.length)));

export function reasonText(t: Translate, code: string | null | undefined, message: string | null | undefined): string {
  return code && known.has(code) ? t(`reason.${code}` as MessageKey) : (message ?? '');
}
