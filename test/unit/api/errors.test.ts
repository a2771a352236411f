import { describe, expect, it } from 'vitest';
import { mapFieldErrors, ServiceError } from '../../../electron/api/errors';

describe('errors[] mapped to shipments (spec "Errors": leading bracketed index)', () => {
  it('takes the index from the path and the ids from the request item', () => {
    const items = [{ deliveryId: 11 }, { deliveryId: 12, externalId: 'E-12' }];
    const out = mapFieldErrors(
      [
        { field: '[1].extraServices[0].code', message: 'Unknown service', value: 'xyz' },
        { field: 'deliveries', message: 'Missing', value: null },
      ],
      items,
    );
    expect(out[0]).toMatchObject({
      index: 1,
      path: 'extraServices[0].code',
      deliveryId: 12,
      externalId: 'E-12',
      value: 'xyz',
    });
    expect(out[1]).toMatchObject({ index: null, deliveryId: null, path: 'deliveries' });
  });

  it('ignores an errors value that is not a list', () => {
    expect(mapFieldErrors('nope')).toEqual([]);
  });

  it('serialises without stack or cause', () => {
    const e = new ServiceError('http', 'Nope', { status: 422, cause: new Error('inner') });
    expect(JSON.parse(JSON.stringify(e))).toEqual({
      kind: 'http',
      status: 422,
      message: 'Nope',
      errors: [],
      outcome: null,
    });
    expect(e.withOutcome('not-applied').outcome).toBe('not-applied');
  });
});
