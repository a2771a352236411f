/** The draft -> the service's transport search item (spec "GET /api/v3/transports": items as insert fields). */
import { describe, expect, it } from 'vitest';
import { draftToTransportQuery } from '../../../electron/workflows/shipmentDraft';
import { shipmentDraft } from '../../../shared/contract/newShipment';

const draft = (address: { street: string; streetNumber: string }) =>
  shipmentDraft.parse({
    sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
    recipient: {
      type: 'address',
      surname: 'Nováková',
      phone: '+420601234567',
      address: { ...address, city: 'Trutnov', postalCode: '54101', state: 'CZ' },
    },
    value: '1500',
    valueCurrency: 'CZK',
    packages: [{ weight: '2,5', length: '30', width: '20', height: '10' }],
  });

describe('transport search item', () => {
  it('sends the house number typed in No. with the street, as the insert does (spec "Delivery: request fields")', () => {
    expect(draftToTransportQuery(draft({ street: 'Úpská', streetNumber: '12/3' })).recipient.address).toEqual({
      street: 'Úpská',
      streetNumber: '12/3',
      city: 'Trutnov',
      postalCode: '54101',
      state: 'CZ',
    });
    expect(draftToTransportQuery(draft({ street: 'Úpská 12', streetNumber: '' })).recipient.address).not.toHaveProperty(
      'streetNumber',
    );
  });
});
