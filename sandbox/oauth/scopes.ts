/** OAuth scopes (spec "Access to resources" 2 and the resource index). */
import type { Msg } from '../i18n';

export const SCOPES = ['deliveries', 'transports', 'collection-protocols', 'collection-places'] as const;
export type Scope = (typeof SCOPES)[number];

export const scopeDescriptions: Record<Scope, Msg> = {
  deliveries: {
    en: 'Insert, edit, close and cancel shipments; labels, ZPL and tracking',
    cs: 'Zakládání, úpravy, uzavírání a rušení zásilek; štítky, ZPL a sledování',
  },
  transports: { en: 'Search transports and prices', cs: 'Vyhledávání přeprav a cen' },
  'collection-protocols': { en: 'Create and read collection protocols', cs: 'Vytváření a čtení svozových protokolů' },
  'collection-places': { en: "Read the company's collection places", cs: 'Čtení svozových míst firmy' },
};

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

/** Space-separated scopes (RFC 6749 3.3); null when empty or when any is unknown. */
export function parseScope(text: string): Scope[] | null {
  const parts = text.split(' ').filter(Boolean);
  if (parts.length === 0 || !parts.every(isScope)) return null;
  return [...new Set(parts)] as Scope[];
}

export function scopeWithin(requested: readonly string[], granted: string): boolean {
  const g = new Set(granted.split(' '));
  return requested.every((s) => g.has(s));
}
