/**
 * The carriers the station routes labels for, with the ZPL sizes each offers (spec GET
 * /api/v3/deliveries/zpl: not every carrier has ZPL). Codes and names as the service's carrier
 * catalogue lists them (the sandbox's catalogue, sandbox/domain/catalogue.ts); a carrier code met
 * in saved routing but missing here is still shown by the routing screen.
 */
import { labelCarriers, type ZplSize } from '../../../../shared/contract/printing';

export interface CarrierInfo {
  code: string;
  name: string;
  /** null: the carrier has PDF labels only. */
  zplSizes: ZplSize[] | null;
}

export const CARRIERS: CarrierInfo[] = labelCarriers.map((c) => ({ ...c }));

export function carriersWith(saved: string[]): CarrierInfo[] {
  const extra = saved
    .filter((c) => !CARRIERS.some((k) => k.code === c))
    .map((code) => ({ code, name: code, zplSizes: null }));
  return [...CARRIERS, ...extra.map((e) => ({ ...e, zplSizes: ['10x5', '10x15', '10x17'] as ZplSize[] }))];
}
