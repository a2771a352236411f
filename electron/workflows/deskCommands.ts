/**
 * What the command barcodes need from the core (shared/contract/deskCommands.ts): the command
 * sheet, shown and printed like the demo pick list, and the cancel of the parcel in progress —
 * the one command no key did before. The other commands call the methods their keys call.
 */
import type { CancelledParcel, DeskCodeKeyShipment, DeskCodeShipment } from '../../shared/contract/deskCommands';
import { readsAsDeskCode } from '../../shared/scan/deskCodes';
import { normaliseScan } from '../../shared/scan/normaliseScan';
import { toSummary } from '../store/shipmentsRepo';
import type { StoredJob } from '../store/printJobsRepo';
import { waitsForPrinter } from '../../shared/contract/printing';
import { StationError } from '../base/stationError';
import { renderCommandSheetPdf, type CommandSheetLanguage } from '../documents/commandSheet';
import { previewPdf } from '../printing/labelPreview';
import type { Handlers } from '../rpc/rpcServer';
import { printOnOfficePrinter } from './officeSheet';
import type { WorkflowDeps } from './workflowDeps';

export interface DeskCommandsDeps {
  deps: WorkflowDeps;
  /** The language when the renderer names none (the station's setting, or the system's). */
  language(): CommandSheetLanguage;
}

export function createDeskCommands(o: DeskCommandsDeps) {
  const { deps } = o;
  const pdf = (language?: CommandSheetLanguage) =>
    renderCommandSheetPdf({ language: language ?? o.language(), created: deps.clock.now() });

  /**
   * The newest scan's labels that have not reached the printer (queued, or waiting for it) are
   * cancelled, one `parcel_cancelled` per job; a label being sent or printed is left alone (it
   * would come out anyway). Only the newest scan: the parcel the worker has in their hands.
   */
  function cancelParcel(): CancelledParcel | null {
    const s = deps.session();
    if (!s) return null;
    const last = deps.repos.journal.latestScans(s.accountId, 1)[0];
    if (!last) return null;
    const waiting = last.jobIds
      .map((id) => {
        try {
          return deps.queue.get(id);
        } catch {
          return null;
        }
      })
      .filter((j): j is StoredJob => !!j && (j.state === 'queued' || waitsForPrinter(j)));
    if (!waiting.length) return null;
    const now = deps.clock.now();
    const cancelled: number[] = [];
    for (const j of waiting) {
      try {
        deps.queue.cancel(j.id);
      } catch (err) {
        // Taken by the printer meanwhile: it prints; the others are still cancelled.
        if (err instanceof StationError && err.code === 'job_not_cancellable') continue;
        throw err;
      }
      cancelled.push(j.id);
      deps.repos.deskActions.record({
        action: 'parcel_cancelled',
        at: now,
        accountId: s.accountId,
        deliveryId: last.deliveryId,
        entryId: deps.repos.journal.entriesOfJob(j.id)[0]?.id ?? null,
        jobId: j.id,
      });
    }
    return cancelled.length
      ? { scanId: last.scanId, code: last.code, deliveryId: last.deliveryId, jobIds: cancelled }
      : null;
  }

  /**
   * The cached shipment of the active company that `raw` (a desk code: a command barcode, a badge),
   * read as a scan reads it, is also a key of: the same code after the scanner's affixes, an AIM
   * identifier and control characters are dropped on both sides. The service lets an e-shop choose
   * its order numbers (spec "Delivery: request fields" externalId), so one can read as a command.
   */
  function shipmentReadAs(raw: string): DeskCodeShipment | null {
    const s = deps.session();
    if (!s) return null;
    const affixes = deps.scannerAffixes?.();
    const n = normaliseScan(raw, affixes);
    if (!n.ok) return null;
    const shipments = deps.repos.shipments;
    const found = (deliveryId: number, key: DeskCodeShipment['key']): DeskCodeShipment | null => {
      const shipment = shipments.get(s.accountId, deliveryId);
      return shipment ? { deliveryId, key, recipientName: toSummary(shipment).recipientName } : null;
    };
    const exact =
      shipments.findByExternalId(s.accountId, n.code).map((x) => found(x.deliveryId, 'externalId'))[0] ??
      shipments.findByDeliveryNumber(s.accountId, n.code).map((x) => found(x.deliveryId, 'deliveryNumber'))[0] ??
      shipments.findByPackageBarcode(s.accountId, n.code).map((x) => found(x.deliveryId, 'barcode'))[0];
    if (exact) return exact;
    for (const k of shipments.oddKeys(s.accountId)) {
      const m = normaliseScan(k.key, affixes);
      if (m.ok && m.code === n.code) return found(k.deliveryId, k.kind);
    }
    return null;
  }

  /**
   * The cached shipments with a key that reads as a desk code as a scan reads it. Only the keys that
   * begin with white space, a control character, '!' or ']' can (oddKeys): a desk code begins with
   * '!' once control characters, white space and an AIM identifier are dropped. The scanner's own
   * affixes are not applied: the scanner adds them around what the label holds.
   */
  function deskCodeShipments(): DeskCodeKeyShipment[] {
    const s = deps.session();
    if (!s) return [];
    const shipments = deps.repos.shipments;
    const named = new Map<number, DeskCodeKeyShipment>();
    for (const k of shipments.oddKeys(s.accountId)) {
      if (named.size >= 100) break;
      if (named.has(k.deliveryId) || !readsAsDeskCode(k.key)) continue;
      const shipment = shipments.get(s.accountId, k.deliveryId);
      if (shipment)
        named.set(k.deliveryId, {
          deliveryId: k.deliveryId,
          key: k.kind,
          code: k.key,
          recipientName: toSummary(shipment).recipientName,
        });
    }
    return [...named.values()].sort((a, b) => b.deliveryId - a.deliveryId);
  }

  const handlers: Pick<
    Handlers,
    | 'commands.sheet'
    | 'commands.printSheet'
    | 'commands.cancelParcel'
    | 'commands.shipmentReadAs'
    | 'commands.deskCodeShipments'
  > = {
    'commands.deskCodeShipments': () => ({ shipments: deskCodeShipments() }),
    'commands.shipmentReadAs': ({ code }) => ({ shipment: shipmentReadAs(code) }),
    // 96 dpi: the PDF's bars are laid out to whole pixels at exactly this resolution.
    'commands.sheet': async ({ language }) => ({ pages: await previewPdf(await pdf(language), 96) }),
    'commands.printSheet': async ({ language }) =>
      printOnOfficePrinter(deps, { pdf: await pdf(language), labelRef: 'commands:sheet', title: 'Command sheet' }),
    'commands.cancelParcel': () => ({ cancelled: cancelParcel() }),
  };
  return { pdf, cancelParcel, shipmentReadAs, deskCodeShipments, handlers };
}
