/**
 * Packages at the desk in the RPC contract: a parcel that turns out to need more boxes (or fewer) is
 * opened instead of closed, its packages edited (added, split, removed, weighed on the scale or
 * typed, measured where the carrier asks), and then sent: the shipment is updated at the service
 * (spec "PUT /api/v3/deliveries", If-Match), the chosen transport checked again (spec "GET
 * /api/v3/transports"), and only then closed and printed, one label per package.
 */
import { z } from 'zod';
import { DECIMAL_PATTERN } from '../decimal';
import { MAX_DESK_PACKAGES, MAX_SIDE_CM } from '../packages/deskPackages';

const side = z.number().int().min(1).max(MAX_SIDE_CM).nullable();
const deskPackage = z
  .object({
    /** kg as exact decimal text with a point (the page reads a typed comma before sending). */
    weight: z.string().max(20).regex(DECIMAL_PATTERN).nullable(),
    length: side,
    width: side,
    height: side,
  })
  .strict();

/** A parcel opened at the desk: its shipment and packages as the service holds them now. */
const openedParcel = z.object({
  deliveryId: z.number().int(),
  /** The code it was opened by, as the scan read it. */
  code: z.string(),
  recipientName: z.string(),
  agent: z.string(),
  deliveryType: z.string(),
  /**
   * Whether the carrier wants each package's sides for this delivery type (spec "Transport option"
   * `deliveryType.dimensionsRequired`); null when the transport search did not offer it now.
   */
  dimensionsRequired: z.boolean().nullable(),
  packages: z.array(deskPackage),
});
export type OpenedParcel = z.infer<typeof openedParcel>;

const code = z.string().min(1).max(400);

export const packagesMethods = {
  /**
   * Opens a prepared parcel's packages (a scan while "packages" is armed, Ctrl+B): read fresh from
   * the service. Refused for a closed or cancelled parcel, a desk code, a code that names none.
   */
  'packages.open': { work: true, params: z.object({ code }).strict(), result: openedParcel },
  /** The scale's settled weight now, for the package the worker put on it; refused when it is not settled. */
  'packages.weigh': { params: z.object({}).strict(), result: z.object({ kg: z.string() }) },
  /**
   * Sends the edited packages: the chosen transport is checked with them first (refused:
   * `transport_refuses`, nothing sent), then the shipment is updated with If-Match (changed
   * meanwhile: `packages_changed`, nothing sent, the parcel opened again with the service's data),
   * then it is closed and printed as a scan of it: its outcome comes as `scan.outcome` of `scanId`.
   */
  'packages.close': {
    work: true,
    params: z
      .object({ deliveryId: z.number().int().positive(), packages: z.array(deskPackage).min(1).max(MAX_DESK_PACKAGES) })
      .strict(),
    result: z.object({ scanId: z.number().int() }),
  },
  /** The worker left the parcel's packages without sending them (Esc): nothing was sent. */
  'packages.leave': { params: z.object({ deliveryId: z.number().int().positive() }).strict(), result: z.null() },
};
