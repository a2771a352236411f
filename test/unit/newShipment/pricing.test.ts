/**
 * The price arithmetic of a transport option against the sandbox's documented pricing model
 * (sandbox/domain/README.md "Transport search and pricing", spec "Transport option":
 * final price = total + prices of all implicit extra services), exact to the haléř.
 */
import { describe, expect, it } from 'vitest';
import { addDecimals as addAmounts, fromMinor, toMinor } from '../../../shared/decimal';
import { finalPrice, markBest, priceWithChoices } from '../../../shared/newShipment/pricing';

const service = (code: string, implicit: boolean, total: string | null) => ({
  code,
  implicit,
  price: total === null ? null : { total, currency: 'CZK' },
});
const window = (minTo: string, maxTo: string) => ({ minDeliveryTo: minTo, maxDeliveryTo: maxTo });

describe('final price (spec "Transport option")', () => {
  it('README example: PPR-BUSINESS 2 kg 30x20x10 with COD: base 99.00 + fuel 12.38 + toll 4.50 = total 115.88; + implicit cod 29.00 = final 144.88', () => {
    // base + fees = total, as the service reports them (fuel 12.5 % of 99.00 = 12.375 -> 12.38 half up).
    expect(addAmounts(['99.00', '12.38', '4.50'])).toBe('115.88');
    const option = {
      price: { total: '115.88', currency: 'CZK' },
      extraServices: [
        service('email_advice_unload', false, null),
        service('cod', true, '29'),
        service('guaranteed_24', false, '60'),
      ],
    };
    expect(finalPrice(option)).toEqual({ total: '144.88', currency: 'CZK' });
    // Chosen services come on top; implicit ones are never counted twice.
    expect(priceWithChoices(option, ['guaranteed_24', 'cod', 'email_advice_unload'])).toEqual({
      total: '204.88',
      currency: 'CZK',
    });
  });

  it('a back shipment (README: NP back_delivery 25.00 implied by the party types) adds to the total; services that are not implicit do not', () => {
    const option = {
      price: { total: '119', currency: 'CZK' },
      extraServices: [service('back_delivery', true, '25.00'), service('addressee_only', false, '30.00')],
    };
    expect(finalPrice(option)).toEqual({ total: '144.00', currency: 'CZK' });
  });

  it('a direct shipment with COD adds both implicit services (RGX: total 87.32 + direct 10.00 + cod 25.00)', () => {
    // RGX-STD up to 5 kg 79.00, fuel 8 % = 6.32, toll 2.00 -> 87.32.
    expect(addAmounts(['79.00', '6.32', '2.00'])).toBe('87.32');
    const option = {
      price: { total: '87.32', currency: 'CZK' },
      extraServices: [service('cod', true, '25.00'), service('direct_delivery', true, '10.00')],
    };
    expect(finalPrice(option)?.total).toBe('122.32');
  });

  it('an unpaid transport (CCR, contract prices: no price element) has no final price', () => {
    expect(finalPrice({ price: null, extraServices: [service('back_delivery', true, null)] })).toBeNull();
  });

  it('sums decimals without float drift (0.1 + 0.2 is 0.30, many haléře add up exactly)', () => {
    expect(addAmounts(['0.1', '0.2'])).toBe('0.30');
    expect(addAmounts(Array.from({ length: 1000 }, () => '0.01'))).toBe('10.00');
    expect(toMinor('12.345')).toBeNull();
    expect(fromMinor(-5n)).toBe('-0.05');
  });
});

describe('cheapest and fastest', () => {
  it('marks the lowest final price (not the lowest total) and the earliest delivery; ties are all marked; unpaid never cheapest', () => {
    const options = [
      // Lower total, but its implicit COD makes the final price higher.
      {
        price: { total: '100.00', currency: 'CZK' },
        extraServices: [service('cod', true, '35.00')],
        deliveryTime: window('2024-06-04T18:00:00+02:00', '2024-06-05T18:00:00+02:00'),
      },
      {
        price: { total: '115.88', currency: 'CZK' },
        extraServices: [service('cod', true, '18.00')],
        deliveryTime: window('2024-06-04T18:00:00+02:00', '2024-06-04T18:00:00+02:00'),
      },
      {
        price: null,
        extraServices: [],
        deliveryTime: window('2024-06-03T18:00:00+02:00', '2024-06-03T18:00:00+02:00'),
      },
      {
        price: { total: '115.00', currency: 'CZK' },
        extraServices: [service('cod', true, '18.88')],
        deliveryTime: window('2024-06-05T18:00:00+02:00', '2024-06-06T18:00:00+02:00'),
      },
    ];
    const best = markBest(options);
    expect([...best.cheapest].sort()).toEqual([1, 3]);
    expect([...best.fastest]).toEqual([2]);
  });
});
