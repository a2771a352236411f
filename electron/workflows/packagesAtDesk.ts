/**
 * Packages at the desk: a parcel that turns out to need more boxes (or fewer) is opened instead of
 * closed; the worker adds, splits, removes, weighs or types its packages (and their sides where the
 * carrier asks), then sends them. Before the close, in this order:
 *
 * 1. the chosen transport is checked with the new packages (spec "GET /api/v3/transports": the
 *    options for the shipment's parties and packages; "Transport option" `agent.code` /
 *    `deliveryType.code`): not offered any more (too heavy, too big, too many) -> `transport_refuses`,
 *    and nothing is sent or closed. The search needs every package's sides ("package dimensions are
 *    always required"), and the station sends none it did not get from the worker or the service: a
 *    box the worker did not measure would be rated as the size the station made up. So the search
 *    (a real re-rating: the carrier's volume weight counts the sides) is made when every box has its
 *    three sides; where the carrier wants them (`dimensionsRequired`) every box must have them
 *    before anything is sent (`packages_invalid`, the box named);
 * 2. the shipment is updated (spec "PUT /api/v3/deliveries": every required field as in insert plus
 *    `deliveryId`; `If-Match` with the ETag of the GET without `fields` made when the parcel was
 *    opened). Sides go where they were typed: they are conditional in a delivery (spec "Delivery:
 *    request fields"), required only where the carrier wants them. The service checks the update as
 *    an insert (spec "PUT": 422, same validation as insert), so a box the search could not rate
 *    (not measured) is still judged against the delivery type: a 422 on the packages is
 *    `transport_refuses` with the service's words. A 412 (changed meanwhile, nothing edited) is
 *    `packages_changed`: the parcel is read again (a fresh ETag), the worker's packages stay on the
 *    page, and a second send puts them on the service's new data;
 * 3. it is closed and printed as a scan of it, through the scan lane (scanToClose.closeHeld): one
 *    label per package (spec "ZPL item": `zplCodes`, one label per package), its outcome on the
 *    Station screen. With a scale, the lane does not weigh it again: its weights are recorded as sent.
 *
 * The edit rules are shared/packages/deskPackages.ts, checked here again: the page is untrusted.
 */
import type { OpenedParcel } from '../../shared/contract/packages';
import { shipmentStates, type Shipment } from '../../shared/contract/shipments';
import { problemsOf, SIDES, type DeskPackage } from '../../shared/packages/deskPackages';
import { readsAsDeskCode } from '../../shared/scan/deskCodes';
import { isServiceError, type Transport } from '../api/index';
import { StationError } from '../base/stationError';
import type { Handlers } from '../rpc/rpcServer';
import type { PackageWeight } from '../store/weighRepo';
import { toSummary } from '../store/shipmentsRepo';
import type { ScanToClose } from './scanToClose';
import { classifyTrouble } from './serviceTrouble';
import { draftToDelivery, draftToTransportQuery, shipmentToDraft } from './shipmentDraft';
import type { WorkflowDeps, WorkflowSession } from './workflowDeps';

/** The desk's scale as this workflow needs it (electron/scale/desk.ts). */
export interface PackagesScale {
  /** The settled weight on the scale now (kg), or null. */
  settledKg(): string | null;
  /** A scale is set up: the scan lane would weigh the parcel before its close. */
  weighs(): boolean;
  /** The weights the parcel was sent with, on its scan's journal entry: the lane does not weigh it again. */
  recordSent(entryId: number, weights: PackageWeight[]): void;
}

export interface PackagesAtDeskDeps {
  deps: WorkflowDeps;
  lane: Pick<ScanToClose, 'closeHeld'>;
  scale: PackagesScale;
}

/**
 * What the desk keeps of a parcel it opened: the ETag its update must match, the weights the scale
 * gave, and whether its carrier wants each box's sides (null: not known).
 */
interface Opened {
  accountId: string;
  code: string;
  etag: string | null;
  fromScale: Set<string>;
  dimensionsRequired: boolean | null;
}

const sideText = (cm: number | null) => (cm === null ? '' : String(cm));

/** Every box has its three sides: the transport search can rate them (spec "GET /api/v3/transports"). */
const measured = (packages: readonly DeskPackage[]) => packages.every((p) => SIDES.every((k) => p[k] !== null));

function withPackages(s: Shipment, packages: readonly DeskPackage[]) {
  const draft = shipmentToDraft(s);
  draft.packages = packages.map((p) => ({
    weight: p.weight ?? '',
    ...Object.fromEntries(SIDES.map((k) => [k, sideText(p[k])])),
  })) as typeof draft.packages;
  return draft;
}

/** A 422 on the update whose every error is about the packages: the delivery type does not take them. */
function packagesRefused(err: unknown): string[] | null {
  if (!isServiceError(err) || err.kind !== 'http' || err.status !== 422 || err.errors.length === 0) return null;
  return err.errors.every((e) => /^packages\b/.test(e.path)) ? err.errors.map((e) => e.message) : null;
}

const deskPackageOf = (p: Shipment['packages'][number]): DeskPackage => ({
  weight: p.weight,
  length: p.length,
  width: p.width,
  height: p.height,
});

export function createPackagesAtDesk(o: PackagesAtDeskDeps) {
  const { deps } = o;
  const opened = new Map<number, Opened>();

  function session(): WorkflowSession {
    const s = deps.session();
    if (!s) throw new StationError('login_required', 'The station is not logged in to the service. Log in again.');
    return s;
  }

  /** A service call's failure as the worker's sentence; `doing` names the step in the English message. */
  function troubleOf(err: unknown, doing: string): StationError {
    if (err instanceof StationError) return err;
    const t = classifyTrouble(err);
    if (t.kind === 'login') return new StationError('login_required', `${doing}: log in to the service again.`);
    if (t.kind === 'unreachable')
      return new StationError('service_unreachable', `${doing}: the service did not answer. Nothing was closed.`, {
        serviceMessage: t.error.message,
      });
    const words = t.messages.length ? ` (${t.messages.join(' | ')})` : '';
    return new StationError('rejected', `${doing}: ${t.error.message}${words}. Nothing was closed.`, {
      serviceMessage: `${t.error.message}${words}`,
    });
  }

  /** The shipment as the service holds it now (GET without `fields`: its ETag is the one If-Match compares with). */
  async function readFresh(
    s: WorkflowSession,
    deliveryId: number,
  ): Promise<{ shipment: Shipment; etag: string | null }> {
    const found = await s.client.searchDeliveries({ deliveryIds: [deliveryId] });
    if (found.status !== 'ok' || found.deliveries.length === 0)
      throw new StationError('not_found', `Shipment ${deliveryId} was not found at the service.`);
    deps.recordDeliveries(s.accountId, found.deliveries);
    const shipment = deps.repos.shipments.get(s.accountId, deliveryId);
    if (!shipment) throw new StationError('not_stored', `Shipment ${deliveryId} could not be read.`);
    if (shipment.state !== shipmentStates.prepared)
      throw new StationError(
        'packages_not_prepared',
        'This parcel is closed or cancelled: its packages can no longer change.',
      );
    return { shipment, etag: found.etag };
  }

  /** The chosen transport among the options for these packages (every box measured); null when it is not offered for them. */
  async function chosenTransport(
    s: WorkflowSession,
    shipment: Shipment,
    packages: readonly DeskPackage[],
  ): Promise<Transport | null> {
    const results = await s.client.searchTransports([draftToTransportQuery(withPackages(shipment, packages))]);
    const options = results.find((r) => r.delivery === 0)?.transports ?? [];
    return (
      options.find((t) => t.agent.code === shipment.agent && t.deliveryType.code === shipment.deliveryType) ?? null
    );
  }

  /**
   * Whether the carrier wants each box's sides (spec "Transport option" `dimensionsRequired`). Sides
   * are asked only where it does. The search that tells needs every package's sides: with the
   * service's own sides it is asked; a package the service holds without them was taken without
   * them (spec "Delivery: request fields": sides are required only where the delivery type wants
   * them), so its carrier does not want them. Null: the search did not offer the transport now.
   */
  async function sidesWanted(s: WorkflowSession, shipment: Shipment, packages: DeskPackage[]) {
    if (!measured(packages)) return false;
    const transport = await chosenTransport(s, shipment, packages).catch(() => null);
    return transport ? transport.deliveryType.dimensionsRequired : null;
  }

  async function open(raw: string): Promise<OpenedParcel> {
    const s = session();
    const affixes = deps.scannerAffixes?.();
    if (readsAsDeskCode(raw, affixes))
      throw new StationError('desk_code_not_parcel', 'This is a desk code (a badge or a command), not a parcel.');
    const found = await deps.lookup(raw, { refresh: true });
    if (found.kind === 'invalid') throw new StationError('invalid_params', found.message);
    if (found.kind !== 'found') throw new StationError('not_found', `No shipment has the code ${found.code}.`);
    try {
      const { shipment, etag } = await readFresh(s, found.shipment.deliveryId);
      const packages = shipment.packages.map(deskPackageOf);
      const dimensionsRequired = await sidesWanted(s, shipment, packages);
      opened.set(shipment.deliveryId, {
        accountId: s.accountId,
        code: found.code,
        etag,
        fromScale: new Set(),
        dimensionsRequired,
      });
      return {
        deliveryId: shipment.deliveryId,
        code: found.code,
        recipientName: toSummary(shipment).recipientName,
        agent: shipment.agent ?? '',
        deliveryType: shipment.deliveryType ?? '',
        dimensionsRequired,
        packages,
      };
    } catch (err) {
      throw troubleOf(err, 'Opening the parcel’s packages failed');
    }
  }

  /** The settled weight now, for the package on the scale; remembered as the scale's for the record. */
  function weigh(): { kg: string } {
    const kg = o.scale.settledKg();
    if (kg === null)
      throw new StationError(
        'scale_no_weight',
        'The scale shows no settled weight: put the package on it, or type its weight.',
      );
    for (const x of opened.values()) x.fromScale.add(kg);
    return { kg };
  }

  const refuses = (shipment: Shipment, said?: string[]) =>
    new StationError(
      'transport_refuses',
      `${shipment.agent} ${shipment.deliveryType} does not take the parcel with these packages${said ? ` (${said.join(' | ')})` : ''}. Nothing was changed and nothing closed.`,
      {
        agent: shipment.agent ?? '',
        deliveryType: shipment.deliveryType ?? '',
        ...(said ? { serviceMessage: said.join(' ') } : {}),
      },
    );

  /** Steps 1 and 2 of the module's comment: the transport checked, then the shipment updated with If-Match. */
  async function update(s: WorkflowSession, deliveryId: number, at: Opened, packages: DeskPackage[]): Promise<void> {
    if (at.dimensionsRequired) {
      const problems = problemsOf(packages, true);
      if (problems.length) throw invalid(problems);
    }
    const { shipment } = await readFresh(s, deliveryId);
    if (measured(packages)) {
      const transport = await chosenTransport(s, shipment, packages);
      if (!transport) throw refuses(shipment);
      const problems = problemsOf(packages, transport.deliveryType.dimensionsRequired);
      if (problems.length) throw invalid(problems);
    }
    try {
      await s.client.editDeliveries(
        [{ ...draftToDelivery(withPackages(shipment, packages)), deliveryId }],
        at.etag ? { ifMatch: at.etag } : {},
      );
    } catch (err) {
      const said = packagesRefused(err);
      if (said) throw refuses(shipment, said);
      if (isServiceError(err) && err.kind === 'http' && err.status === 412) {
        // Spec "PUT": 412 = changed since that ETag, nothing edited. Read again: the next send matches the new data.
        at.etag = (await readFresh(s, deliveryId)).etag;
        throw new StationError(
          'packages_changed',
          'Someone changed this shipment at the service while its packages were edited. Nothing was sent; check the packages and send again.',
        );
      }
      throw err;
    }
    // PUT answers the data it took; a fresh read stores it as the service holds it.
    deps.recordDeliveries(s.accountId, await s.client.getDeliveriesByIds([deliveryId]));
  }

  const invalid = (problems: ReturnType<typeof problemsOf>) =>
    new StationError('packages_invalid', 'Each package needs its weight (and its sides where the carrier asks).', {
      problems: problems.map((p) => `${p.index + 1}:${p.rule}`),
    });

  async function close(deliveryId: number, packages: DeskPackage[]): Promise<{ scanId: number }> {
    const s = session();
    const at = opened.get(deliveryId);
    if (!at || at.accountId !== s.accountId)
      throw new StationError('packages_not_open', 'Open the parcel’s packages again: nothing was sent.');
    const problems = problemsOf(packages, false);
    if (problems.length) throw invalid(problems);
    try {
      await update(s, deliveryId, at, packages);
    } catch (err) {
      throw troubleOf(err, 'Updating the parcel’s packages failed');
    }
    opened.delete(deliveryId);
    const when = deps.clock.now().toISOString();
    const weights: PackageWeight[] = packages.map((p, packageIndex) => ({
      packageIndex,
      kg: p.weight,
      reading: null,
      // Typed weights are now the shipment's own: `skipped` says the scale did not give them.
      source: p.weight !== null && at.fromScale.has(p.weight) ? 'scale' : 'skipped',
      at: when,
    }));
    const scanId = o.lane.closeHeld({ accountId: s.accountId, code: at.code, deliveryId }, (entryId) => {
      if (o.scale.weighs()) o.scale.recordSent(entryId, weights);
    });
    deps.log.info('packages sent at the desk', { deliveryId, packages: packages.length, scanId });
    return { scanId };
  }

  const handlers: Pick<Handlers, 'packages.open' | 'packages.weigh' | 'packages.close' | 'packages.leave'> = {
    'packages.open': ({ code }) => open(code),
    'packages.weigh': () => weigh(),
    'packages.close': ({ deliveryId, packages }) => close(deliveryId, packages),
    'packages.leave': ({ deliveryId }) => {
      opened.delete(deliveryId);
      return null;
    },
  };
  return { open, weigh, close, handlers };
}
