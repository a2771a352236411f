/**
 * The ShipmentSource the sync and the lookup use, made from the API client (electron/api). The
 * client does the spec's request rules (splitting by 100 ids and URL length, 404 "none found" as
 * an empty list, ETag/If-None-Match, timeouts, safe GET retries); this only picks the calls.
 */
import type { Delivery, ServiceClient } from '../api/index';
import type { SearchKey, ShipmentPageResult, ShipmentSource } from './shipmentSource';

export function shipmentSourceFromClient(client: ServiceClient): ShipmentSource {
  return {
    async pageAfter(afterDeliveryId: number, _limit: number, ifNoneMatch: string | null): Promise<ShipmentPageResult> {
      // Spec filter rule 4: `deliveryId=>N`; the service returns at most 100 (spec "Limits").
      const r = await client.searchDeliveries(
        { filters: { deliveryId: { gt: afterDeliveryId } } },
        { etag: ifNoneMatch },
      );
      return r.status === 'not-modified'
        ? { kind: 'not_modified' }
        : { kind: 'page', deliveries: r.deliveries, etag: r.etag };
    },
    async findBy(key: SearchKey, value: string): Promise<Delivery[]> {
      if (key === 'deliveryId') return client.getDeliveriesByIds([Number(value)]);
      if (key === 'externalId') return client.getDeliveriesByExternalIds([value]);
      // An enumeration filter: a comma would split the value (spec filter rule 3); the lookup
      // re-checks every answer for an exact match, so a wider answer never resolves wrongly.
      const r = await client.searchDeliveries({ filters: { [key]: value } });
      return r.status === 'ok' ? r.deliveries : [];
    },
    getMany: (deliveryIds: number[]) => client.getDeliveriesByIds(deliveryIds),
    collectionPlaces: () => client.getCollectionPlaces(),
  };
}
