/**
 * The demo data: two companies, a user for each, the registered demo client,
 * the domain's collection places and prepared shipments. `none` keeps the companies, users,
 * client and places but no shipments: a clean slate that can still log in and insert.
 */
import { createDelivery, demoDeliveries, demoPlaces, validateDeliveries } from './domain/index';
import type { SandboxStore } from './store/index';
import { registerClient } from './oauth/registration';
import { SCOPES } from './oauth/scopes';

export type SeedKind = 'demo' | 'none';

export const DEMO = {
  companyId: 1,
  companyName: 'Demo Shop s.r.o.',
  username: 'demo',
  password: 'demo-password',
  /** A second company, so tests can meet another company's shipments (403). */
  otherCompanyId: 2,
  otherCompanyName: 'Other Trading a.s.',
  otherUsername: 'other',
  otherPassword: 'other-password',
  /** Fixed (not generated) so the station's built-in sandbox account and the README can name it. */
  clientId: 'demo-client',
  clientSecret: 'demo-secret',
  clientCompanyName: 'Label Station (demo)',
  clientWebUrl: 'https://example.com/label-station',
  clientLogoUrl: 'https://example.com/label-station/logo.png',
  /** The station's default loopback redirect. */
  redirectUri: 'http://127.0.0.1:53682/callback',
  scope: SCOPES.join(' '),
} as const;

/** How many of the demo shipments the other company gets as well. */
const OTHER_COMPANY_SHIPMENTS = 3;

export function seed(store: SandboxStore, kind: SeedKind, now: Date): void {
  store.transaction(() => {
    store.companies.addCompany(DEMO.companyId, DEMO.companyName);
    store.companies.addCompany(DEMO.otherCompanyId, DEMO.otherCompanyName);
    store.oauth.addUser(DEMO.username, DEMO.password, DEMO.companyId);
    store.oauth.addUser(DEMO.otherUsername, DEMO.otherPassword, DEMO.otherCompanyId);
    registerClient(
      store,
      {
        companyName: DEMO.clientCompanyName,
        logoUrl: DEMO.clientLogoUrl,
        webUrl: DEMO.clientWebUrl,
        redirectUri: DEMO.redirectUri,
        clientSecret: DEMO.clientSecret,
      },
      now,
      DEMO.clientId,
    );
    const places = demoPlaces();
    for (const companyId of [DEMO.companyId, DEMO.otherCompanyId])
      for (const p of places) store.companies.putPlace(companyId, p);
  });
  if (kind === 'none') return;

  const places = demoPlaces();
  const items = demoDeliveries();
  const valid = validateDeliveries(items, { places, mode: 'insert' });
  if (!valid.ok) {
    const first = valid.errors[0];
    throw new Error(
      `demo shipments do not validate: ${first ? `${first.field}: ${first.message.en}` : 'unknown reason'}`,
    );
  }
  const make = (companyId: number, inputs: typeof valid.value) => {
    const ds = inputs.map((input) => createDelivery(input, { deliveryId: store.nextDeliveryId(), now }));
    store.deliveries.saveAll(companyId, ds);
  };
  make(DEMO.companyId, valid.value);
  make(DEMO.otherCompanyId, valid.value.slice(0, OTHER_COMPANY_SHIPMENTS));
}
