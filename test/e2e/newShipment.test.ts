/**
 * The New shipment screen in Chromium through the web host, against the station's
 * embedded sandbox: shipments to an address, a pick-up place and a collection place (back
 * shipment), COD priced as the spec says (final = total + implicit services), a banned extra
 * service combination refused in the form, a required phone enforced, a service field error on
 * its field (English and Czech), edit with a concurrent change (412), and insert -> close ->
 * label out of the virtual ZPL printer. Screenshots in test-results/screenshots/newShipment-*.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { connectRpc, type RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';

const shots = path.join(repoRoot, 'test-results', 'screenshots');

describe.skipIf(!needs('chromium'))('New shipment screen', () => {
  let hs: HostedStation;
  let browser: Browser;
  let rpc: RpcSocket;

  beforeAll(async () => {
    hs = await startHostedStation({ printWaitMs: 8000 });
    browser = await launchChromium();
    rpc = await connectRpc(hs.host);
    mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    rpc?.close();
    await browser?.close();
    await hs?.close();
  });

  async function openForm(): Promise<Page> {
    const page = await browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
    // Shorter than the test's limit, so a missing element names itself instead of a bare timeout.
    page.setDefaultTimeout(10_000);
    await page.goto(hs.host.url);
    await page.getByTestId('nav-newShipment').click();
    // The sender is one of the company's active collection places (collectionPlaces.list); one is preselected.
    await expect
      .poll(() => page.getByTestId('ns-sender.collectionPlace').inputValue(), { timeout: 15_000 })
      .not.toBe('');
    await page.getByTestId('ns-sender.collectionPlace').selectOption('WH-PRAHA');
    return page;
  }
  const field = (page: Page, f: string) => page.getByTestId(`ns-${f}`);

  async function fillPerson(
    page: Page,
    role: 'recipient' | 'sender',
    o: { phone?: string; email?: string; surname?: string } = {},
  ) {
    await field(page, `${role}.firstname`).fill('Jana');
    await field(page, `${role}.surname`).fill(o.surname ?? 'Nováková');
    if (o.phone !== '') await field(page, `${role}.phone`).fill(o.phone ?? '+420 601 234 567');
    if (o.email) await field(page, `${role}.email`).fill(o.email);
  }
  async function fillAddress(page: Page, role: 'recipient' | 'sender') {
    await field(page, `${role}.address.street`).fill('Dlouhá 12');
    await field(page, `${role}.address.city`).fill('Praha 1');
    await field(page, `${role}.address.postalCode`).fill('11000');
  }
  async function fillShipment(page: Page, o: { weight?: string; cod?: string; vs?: string; externalId?: string } = {}) {
    await field(page, 'value').fill('1500');
    await field(page, 'packages.0.weight').fill(o.weight ?? '2,5');
    await field(page, 'packages.0.length').fill('30');
    await field(page, 'packages.0.width').fill('20');
    await field(page, 'packages.0.height').fill('10');
    if (o.cod) await field(page, 'cod').fill(o.cod);
    if (o.vs) await field(page, 'variableSymbol').fill(o.vs);
    if (o.externalId) await field(page, 'externalId').fill(o.externalId);
  }
  async function searchAndChoose(page: Page, type: string) {
    await page.getByTestId('ns-search').click();
    await page.getByTestId(`ns-choose-${type}`).check();
    await expect
      .poll(() => page.getByTestId('ns-chosen').textContent())
      .toContain(type === 'NP-DOOR' ? 'National Post' : '');
  }
  async function savedId(page: Page): Promise<number> {
    const text = (await page.getByTestId('ns-saved').textContent({ timeout: 20_000 })) ?? '';
    return Number(/(\d{4,})/.exec(text)?.[1]);
  }

  it('a shipment to an address: options side by side with prices, cheapest and fastest marked; decimal comma weight saved exactly', async () => {
    const page = await openForm();
    await page.screenshot({ path: path.join(shots, 'newShipment-empty-en.png') });
    await fillPerson(page, 'recipient');
    await fillAddress(page, 'recipient');
    await fillShipment(page, { weight: '2,5', externalId: 'E2E-ADDR' });
    await page.getByTestId('ns-search').click();
    await expect.poll(() => page.getByTestId('ns-option').count()).toBeGreaterThan(2);
    expect(await page.getByTestId('ns-badge-cheapest').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('ns-badge-fastest').count()).toBeGreaterThan(0);
    const np = page.locator('[data-testid="ns-option"][data-type="NP-DOOR"]');
    // NP-DOOR 2.5 kg: band up to 5 kg = 139.00, no fees, nothing implicit from a collection place.
    expect(await np.getByTestId('ns-final').textContent()).toContain('139.00 CZK');
    await page.getByTestId('ns-choose-NP-DOOR').check();
    await expect.poll(() => page.getByTestId('ns-services').isVisible()).toBe(true);
    await page.screenshot({ path: path.join(shots, 'newShipment-options-en.png'), fullPage: true });
    await page.getByTestId('ns-save').click();
    const id = await savedId(page);
    expect(await page.getByTestId('ns-saved').textContent()).toContain('prepared');
    const sh = await rpc.call('shipments.get', { deliveryId: id });
    expect(sh).toMatchObject({
      state: 0,
      agent: 'NP',
      deliveryType: 'NP-DOOR',
      externalId: 'E2E-ADDR',
      recipient: { surname: 'Nováková' },
    });
    expect(sh!.packages[0]!.weight).toBe('2.5');
    await page.close();
  });

  it('a shipment to a pick-up place (parcel locker) with its identifier and no address', async () => {
    const page = await openForm();
    await page.getByTestId('ns-recipient-type-pickUpPlace').check();
    expect(await field(page, 'recipient.address.street').count()).toBe(0);
    await field(page, 'recipient.pickUpPlace').fill('BOX-1234');
    await fillPerson(page, 'recipient');
    await fillShipment(page, { weight: '1' });
    await searchAndChoose(page, 'BOX-LOCKER');
    await page.getByTestId('ns-save').click();
    const id = await savedId(page);
    expect(await rpc.call('shipments.get', { deliveryId: id })).toMatchObject({
      agent: 'BOX',
      deliveryType: 'BOX-LOCKER',
      recipient: { pickUpPlace: 'BOX-1234' },
    });
    await page.close();
  });

  it('a back shipment: the customer from the address book as sender, our collection place as recipient; back_delivery included in the final price', async () => {
    const page = await openForm();
    await page.getByTestId('ns-sender-type-address').check();
    await page.getByTestId('ns-sender-book').click();
    await page.getByTestId('ns-book-search').fill('novakova');
    await page.getByTestId('ns-book-item').first().click();
    expect(await field(page, 'sender.surname').inputValue()).toBe('Nováková');
    expect(await field(page, 'sender.address.city').inputValue()).toBe('Praha 1');
    await page.getByTestId('ns-recipient-type-collectionPlace').check();
    await field(page, 'recipient.collectionPlace').selectOption('WH-PRAHA');
    await fillShipment(page, { weight: '1,2' });
    await searchAndChoose(page, 'NP-DOOR');
    // NP-DOOR up to 2 kg 119.00 + implicit back_delivery 25.00 = 144.00 (spec "Transport option").
    expect(await page.getByTestId('ns-service-row-back_delivery').textContent()).toContain('Included');
    expect(await page.getByTestId('ns-price-with-services').textContent()).toContain('144.00 CZK');
    await page.getByTestId('ns-save').click();
    const id = await savedId(page);
    const sh = await rpc.call('shipments.get', { deliveryId: id });
    expect(sh!.extraServices.map((s) => s.code)).toContain('back_delivery');
    await page.close();
  });

  it('COD: the README example prices PPR-BUSINESS at total 115.88 + cod 29.00 = 144.88; saved with amount, currency and variable symbol', async () => {
    const page = await openForm();
    await fillPerson(page, 'recipient');
    await fillAddress(page, 'recipient');
    await fillShipment(page, { weight: '2', cod: '1 250,50', vs: '2024001' });
    await searchAndChoose(page, 'PPR-BUSINESS');
    const row = page.locator('[data-testid="ns-option"][data-type="PPR-BUSINESS"]');
    expect(await row.textContent()).toContain('115.88');
    expect(await row.getByTestId('ns-final').textContent()).toContain('144.88 CZK');
    expect(await page.getByTestId('ns-service-row-cod').textContent()).toContain('Included');
    await page.getByTestId('ns-save').click();
    const sh = await rpc.call('shipments.get', { deliveryId: await savedId(page) });
    expect(sh).toMatchObject({ cod: '1250.5', codCurrency: 'CZK', variableSymbol: '2024001' });
    await page.close();
  });

  it('a banned combination is refused in the form: guaranteed 24 h disables delivery on a chosen day', async () => {
    const page = await openForm();
    await fillPerson(page, 'recipient');
    await fillAddress(page, 'recipient');
    await fillShipment(page);
    await searchAndChoose(page, 'NP-DOOR');
    expect(await page.getByTestId('ns-service-day_definite').isDisabled()).toBe(false);
    await page.getByTestId('ns-service-guaranteed_24').check();
    expect(await page.getByTestId('ns-service-day_definite').isDisabled()).toBe(true);
    expect(await page.getByTestId('ns-service-banned-day_definite').textContent()).toContain(
      'Guaranteed delivery within 24 hours',
    );
    // The price with the chosen service: 139.00 + 50.00.
    expect(await page.getByTestId('ns-price-with-services').textContent()).toContain('189.00 CZK');
    await page.screenshot({ path: path.join(shots, 'newShipment-services-en.png'), fullPage: true });
    await page.close();
  });

  it('a required phone is enforced before insert (PPR-PRIVATE phoneRequired), nothing is sent', async () => {
    const page = await openForm();
    await fillPerson(page, 'recipient', { phone: '', email: 'jana@example.cz' });
    await fillAddress(page, 'recipient');
    await fillShipment(page, { externalId: 'E2E-NOPHONE' });
    await searchAndChoose(page, 'PPR-PRIVATE');
    await page.getByTestId('ns-save').click();
    expect(await page.getByTestId('ns-error-recipient.phone').textContent()).toContain('needs the recipient’s phone');
    // The form moves the focus to the field once its error is drawn (an effect after that render).
    await expect
      .poll(() => page.evaluate('document.activeElement && document.activeElement.getAttribute("data-field")'))
      .toBe('recipient.phone');
    expect(await page.getByTestId('ns-saved').count()).toBe(0);
    expect((await rpc.call('shipments.query', { text: 'E2E-NOPHONE' })).total).toBe(0);
    await page.close();
  });

  it('a field error from the service is shown on its field, in English and in Czech', async () => {
    const page = await openForm();
    await fillPerson(page, 'recipient');
    await fillAddress(page, 'recipient');
    await fillShipment(page, { cod: '100', vs: 'ABC' });
    await searchAndChoose(page, 'NP-DOOR');
    await page.getByTestId('ns-save').click();
    await expect.poll(() => page.getByTestId('ns-error-variableSymbol').textContent()).toContain('digits');
    // The field named as the form names it, not by its API name (the sandbox says "variableSymbol must be…").
    expect(await page.getByTestId('ns-error-variableSymbol').textContent()).toContain('“Variable symbol”');
    await page.screenshot({ path: path.join(shots, 'newShipment-field-error-en.png'), fullPage: true });
    await page.getByTestId('language').selectOption('cs');
    await page.getByTestId('ns-save').click();
    await expect.poll(() => page.getByTestId('ns-error-variableSymbol').textContent()).toContain('číslic');
    expect(await page.getByTestId('ns-banner').textContent()).toContain('Služba zásilku odmítla');
    // Not "Pole variableSymbol musí…": the API's name inside a Czech sentence.
    expect(await page.getByTestId('ns-error-variableSymbol').textContent()).toContain('Pole „Variabilní symbol“');
    expect(await page.getByTestId('screen-newShipment').innerText()).not.toMatch(/variableSymbol/);
    await page.screenshot({ path: path.join(shots, 'newShipment-field-error-cs.png'), fullPage: true });
    await page.getByTestId('language').selectOption('en');
    await page.close();
  });

  it('transport names follow the UI language: searched in English, in Czech after the language changed on another screen', async () => {
    const page = await openForm();
    await fillPerson(page, 'recipient');
    await fillAddress(page, 'recipient');
    await fillShipment(page);
    await searchAndChoose(page, 'NP-DOOR');
    const options = page.getByTestId('ns-options');
    expect(await options.textContent()).toContain('Parcel to the door');
    // Away on the Station screen while the language changes; back on New shipment, the kept options.
    await page.getByTestId('nav-station').click();
    await page.getByTestId('language').selectOption('cs');
    await page.getByTestId('nav-newShipment').click();
    try {
      // The service's names in the UI language (it gives them in the accept-language asked for).
      await expect.poll(() => options.textContent(), { timeout: 20_000 }).toContain('Balík do ruky');
      expect(await options.textContent()).not.toContain('Parcel to the door');
      expect(await page.getByTestId('ns-chosen').textContent()).toContain('Balík do ruky');
      await page.screenshot({ path: path.join(shots, 'newShipment-transports-after-switch-cs.png') });
    } finally {
      await page.getByTestId('language').selectOption('en');
      await page.close();
    }
  });

  it('edit with a concurrent change: the 412 is told plainly and the fresh data is shown; saving again works', async () => {
    const inserted = await rpc.call('shipments.insert', {
      draft: {
        sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
        recipient: {
          type: 'address',
          surname: 'Svoboda',
          phone: '+420777000111',
          address: { street: 'Krátká 1', city: 'Brno', postalCode: '60200', state: 'CZ' },
        },
        value: '900',
        valueCurrency: 'CZK',
        packages: [{ weight: '1' }],
        agent: 'NP',
        deliveryType: 'NP-DOOR',
        ticketNote: 'first',
      },
    });
    if (inserted.kind !== 'saved') throw new Error('insert failed');
    const id = inserted.shipment.deliveryId;
    const page = await openForm();
    // Opened from the Shipments list: select its row, "Edit".
    await page.getByTestId('nav-shipments').click();
    await page.getByTestId('filter-text').fill('Svoboda');
    // The filter applies after a pause; a click before it would be undone by the new list.
    await expect
      .poll(async () => {
        const rows = await page.getByTestId('shipment-row').allTextContents();
        return rows.length > 0 && rows.every((row) => row.includes('Svoboda'));
      })
      .toBe(true);
    await page.locator(`[data-testid="shipment-row"][data-delivery-id="${id}"]`).click();
    await page.getByTestId('action-edit').click();
    await expect.poll(() => field(page, 'ticketNote').inputValue()).toBe('first');
    expect(await page.getByTestId('screen-newShipment').count()).toBe(1);

    // Another desk changes it meanwhile.
    const other = await rpc.call('shipments.openForEdit', { deliveryId: id });
    expect(
      (
        await rpc.call('shipments.edit', {
          deliveryId: id,
          etag: other.etag,
          draft: { ...other.draft, ticketNote: 'from the other desk' },
        })
      ).kind,
    ).toBe('saved');

    await field(page, 'ticketNote').fill('mine');
    await page.getByTestId('ns-save').click();
    await expect.poll(() => page.getByTestId('ns-conflict').textContent()).toContain('Someone else changed shipment');
    expect(await field(page, 'ticketNote').inputValue()).toBe('from the other desk');
    await page.screenshot({ path: path.join(shots, 'newShipment-conflict-en.png'), fullPage: true });

    await field(page, 'ticketNote').fill('mine');
    await page.getByTestId('ns-save').click();
    await page.getByTestId('ns-saved').waitFor();
    expect((await rpc.call('shipments.get', { deliveryId: id }))!.ticketNote).toBe('mine');

    // Cancel (spec "DELETE /api/v3/deliveries"), after the worker confirms.
    page.once('dialog', (d) => void d.accept());
    await page.getByTestId('ns-saved-cancel').click();
    await expect.poll(() => page.getByTestId('ns-banner').textContent()).toContain(`Shipment ${id} is cancelled.`);
    expect((await rpc.call('shipments.get', { deliveryId: id }))!.state).toBe(10);
    expect(await page.getByTestId('ns-save').isDisabled()).toBe(true);
    await page.close();
  });

  it("money and weights read with the language's separator: 4200,5 and 1,5 in Czech, 4200.5 and 1.5 in English; a Czech 0,75 saved exactly", async () => {
    const inserted = await rpc.call('shipments.insert', {
      draft: {
        sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
        recipient: {
          type: 'address',
          surname: 'Desetinná',
          phone: '+420777000222',
          address: { street: 'Krátká 2', city: 'Brno', postalCode: '60200', state: 'CZ' },
        },
        value: '4200.5',
        valueCurrency: 'CZK',
        cod: '1250.75',
        codCurrency: 'CZK',
        variableSymbol: '2024002',
        packages: [{ weight: '1.5' }],
        agent: 'NP',
        deliveryType: 'NP-DOOR',
      },
    });
    if (inserted.kind !== 'saved') throw new Error('insert failed');
    const id = inserted.shipment.deliveryId;
    const page = await openForm();
    const shown = async () => ({
      value: await field(page, 'value').inputValue(),
      cod: await field(page, 'cod').inputValue(),
      weight: await field(page, 'packages.0.weight').inputValue(),
    });

    await page.getByTestId('language').selectOption('cs');
    await field(page, 'edit-id').fill(String(id));
    await page.getByTestId('ns-edit-open').click();
    await expect.poll(() => field(page, 'recipient.surname').inputValue()).toBe('Desetinná');
    expect(await shown()).toEqual({ value: '4200,5', cod: '1250,75', weight: '1,5' });
    await page.screenshot({ path: path.join(shots, 'newShipment-decimals-cs.png') });

    const banner = page.getByTestId('ns-banner');
    expect(await banner.textContent()).toContain(`Upravujete připravenou zásilku ${id}`);
    await page.getByTestId('language').selectOption('en');
    await expect.poll(shown).toEqual({ value: '4200.5', cod: '1250.75', weight: '1.5' });
    // The banner follows the language too (it was kept as Czech text after the switch).
    await expect.poll(() => banner.textContent()).toContain(`Editing prepared shipment ${id}`);
    await page.screenshot({ path: path.join(shots, 'newShipment-decimals-en.png') });

    // Typed in Czech with a comma: the core gets the exact decimal, nothing rounded through a float.
    await page.getByTestId('language').selectOption('cs');
    await expect.poll(shown).toEqual({ value: '4200,5', cod: '1250,75', weight: '1,5' });
    await field(page, 'packages.0.weight').fill('0,75');
    await page.getByTestId('ns-save').click();
    await page.getByTestId('ns-saved').waitFor();
    const sh = await rpc.call('shipments.get', { deliveryId: id });
    expect(sh).toMatchObject({ value: '4200.5', cod: '1250.75' });
    expect(sh!.packages[0]!.weight).toBe('0.75');
    expect(await field(page, 'packages.0.weight').inputValue()).toBe('0,75');
    await page.getByTestId('language').selectOption('en');
    await page.close();
  });

  it('insert -> close -> the label comes out of the virtual ZPL printer', async () => {
    const page = await openForm();
    await fillPerson(page, 'recipient');
    await fillAddress(page, 'recipient');
    await fillShipment(page, { externalId: 'E2E-PRINT' });
    await searchAndChoose(page, 'NP-DOOR');
    await page.getByTestId('ns-save-close').click();
    await expect
      .poll(() => page.getByTestId('ns-saved').getAttribute('data-print'), { timeout: 20_000 })
      .toBe('printed');
    expect(await page.getByTestId('ns-saved').textContent()).toContain('label printed');
    const sh = await rpc.call('shipments.get', { deliveryId: await savedId(page) });
    const barcode = sh!.packages[0]!.barcode!;
    expect(sh!.state).toBe(1);
    expect(hs.station.printing.virtual.zpl.printed().some((l) => l.zpl.includes(barcode))).toBe(true);
    await page.screenshot({ path: path.join(shots, 'newShipment-printed-en.png'), fullPage: true });

    // The same screen in Czech, with options shown.
    await page.getByTestId('language').selectOption('cs');
    await page.getByTestId('ns-saved-new').click();
    await page.getByTestId('ns-sender.collectionPlace').selectOption('WH-PRAHA');
    expect(await page.getByTestId('ns-sender-place-address').textContent()).toContain('Praha');
    await page.screenshot({ path: path.join(shots, 'newShipment-empty-cs.png') });
    await fillPerson(page, 'recipient');
    await fillAddress(page, 'recipient');
    await fillShipment(page, { cod: '500', vs: '123' });
    // Keyboard-first: Enter in a field searches.
    await field(page, 'packages.0.height').press('Enter');
    await expect.poll(() => page.getByTestId('ns-option').count()).toBeGreaterThan(2);
    await page.getByTestId('ns-choose-NP-DOOR').check();
    await expect.poll(() => page.getByTestId('ns-chosen').textContent()).toContain('Zvoleno');
    await page.screenshot({ path: path.join(shots, 'newShipment-options-cs.png'), fullPage: true });
    await page.screenshot({ path: path.join(shots, 'newShipment-viewport-cs.png') });
    await page.getByTestId('language').selectOption('en');
    await page.close();
  });

  it('the house number in No. goes with the transport search; a number in both Street and No., or in neither, is named on its field in English and Czech', async () => {
    const page = await openForm();
    await fillPerson(page, 'recipient');
    const address = async (street: string, no: string) => {
      await field(page, 'recipient.address.street').fill(street);
      await field(page, 'recipient.address.streetNumber').fill(no);
    };
    await address('Úpská', '12/3');
    await field(page, 'recipient.address.city').fill('Trutnov');
    await field(page, 'recipient.address.postalCode').fill('54101');
    await fillShipment(page, { externalId: 'E2E-STREET-NO' });
    // Spec "Delivery: request fields": street without its number is fine when streetNumber is given — in the search too.
    await page.getByTestId('ns-search').click();
    await expect.poll(() => page.getByTestId('ns-option').count()).toBeGreaterThan(2);
    expect(await page.getByTestId('ns-error-recipient.address.street').count()).toBe(0);
    await page.getByTestId('ns-choose-NP-DOOR').check();
    await page.getByTestId('ns-save').click();
    const id = await savedId(page);
    expect((await rpc.call('shipments.get', { deliveryId: id }))!.recipient.address).toMatchObject({
      street: 'Úpská',
      streetNumber: '12/3',
    });

    // The number in both fields would print "Úpská 12 12/3": refused on the street before anything is sent.
    await page.getByTestId('ns-saved-new').click();
    await page.getByTestId('ns-sender.collectionPlace').selectOption('WH-PRAHA');
    await fillPerson(page, 'recipient');
    await address('Úpská 12', '12/3');
    await field(page, 'recipient.address.city').fill('Trutnov');
    await field(page, 'recipient.address.postalCode').fill('54101');
    await fillShipment(page);
    await page.getByTestId('ns-search').click();
    await expect
      .poll(() => page.getByTestId('ns-error-recipient.address.street').textContent())
      .toBe('The house number is in the street and in No.: keep it in one of them.');
    expect(await page.getByTestId('ns-option').count()).toBe(0);
    await page.screenshot({ path: path.join(shots, 'newShipment-house-number-twice-en.png') });
    // No number anywhere: said on No., in the worker's words (not the service's `street` / `streetNumber`).
    await address('Úpská', '');
    await page.getByTestId('ns-search').click();
    await expect
      .poll(() => page.getByTestId('ns-error-recipient.address.streetNumber').textContent())
      .toBe('Give the house number (here or at the end of the street).');

    await page.getByTestId('language').selectOption('cs');
    await page.getByTestId('ns-search').click();
    await expect
      .poll(() => page.getByTestId('ns-error-recipient.address.streetNumber').textContent())
      .toBe('Zadejte číslo domu (sem, nebo na konec ulice).');
    await page.screenshot({ path: path.join(shots, 'newShipment-house-number-cs.png') });
    await address('Úpská 12', '12/3');
    await page.getByTestId('ns-search').click();
    await expect
      .poll(() => page.getByTestId('ns-error-recipient.address.street').textContent())
      .toBe('Číslo domu je v ulici i v poli Č. p.: nechte ho jen v jednom z nich.');
    expect(await page.locator('main').textContent()).not.toMatch(/streetNumber|Pole street/);
    await page.screenshot({ path: path.join(shots, 'newShipment-house-number-twice-cs.png') });
    // With the number only in No., the Czech search finds transports.
    await address('Úpská', '12/3');
    await page.getByTestId('ns-search').click();
    await expect.poll(() => page.getByTestId('ns-option').count()).toBeGreaterThan(2);
    await page.getByTestId('language').selectOption('en');
    await page.close();
  });

  it('fields take no more than the contract accepts, in English and Czech: 5,000 characters pasted stop at the limit, no English length message', async () => {
    const page = await openForm();
    for (const lang of ['en', 'cs'] as const) {
      await page.getByTestId('language').selectOption(lang);
      const long = 'Ř'.repeat(5000);
      for (const [f, max] of [
        ['recipient.surname', 150],
        ['recipient.address.street', 150],
        ['recipient.address.streetNumber', 20],
        ['ticketNote', 300],
        ['externalId', 100],
      ] as const) {
        expect(await field(page, f).getAttribute('maxlength')).toBe(String(max));
        await field(page, f).fill('');
        await field(page, f).focus();
        await page.keyboard.insertText(long);
        expect((await field(page, f).inputValue()).length).toBe(max);
      }
      await page.getByTestId('ns-search').click();
      await expect.poll(() => page.getByTestId('ns-banner').count()).toBe(1);
      expect(await page.locator('main').textContent()).not.toMatch(/Too big|expected string|characters\b.*<=|zod/i);
      await page.screenshot({ path: path.join(shots, `newShipment-limits-${lang}.png`) });
    }
    await page.getByTestId('language').selectOption('en');
    await page.close();
  });

  it('a new shipment starts from the sender used last, also in a fresh browser profile', async () => {
    const page = await openForm();
    await page.getByTestId('ns-sender.collectionPlace').selectOption('WH-BRNO');
    await fillPerson(page, 'recipient', { surname: 'Šťastná' });
    await fillAddress(page, 'recipient');
    await fillShipment(page, { externalId: 'E2E-LAST-SENDER' });
    await searchAndChoose(page, 'NP-DOOR');
    await page.getByTestId('ns-save').click();
    const id = await savedId(page);
    expect((await rpc.call('shipments.get', { deliveryId: id }))!.sender).toMatchObject({ collectionPlace: 'WH-BRNO' });
    await page.close();

    // Another browser profile (nothing in its storage): the station remembers the place, not the browser.
    const next = await browser.newPage({ locale: 'cs-CZ', viewport: { width: 1366, height: 768 } });
    await next.goto(hs.host.url);
    await next.getByTestId('nav-newShipment').click();
    await expect
      .poll(() => next.getByTestId('ns-sender.collectionPlace').inputValue(), { timeout: 15_000 })
      .toBe('WH-BRNO');
    await next.close();
  });
});
