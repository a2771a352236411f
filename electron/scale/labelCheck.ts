/**
 * Verify after printing (a per-station option): once a scan's labels are queued
 * the station expects the worker to scan one printed label; its barcode must be one of the
 * scanned parcel's package barcodes (known after the close). A label of another parcel answers red,
 * naming both shipments; a code that is no label at all (the next parcel's order code) is not a
 * check: it goes to the scan line, and the open check stays on the end-of-day list.
 */
import type { UnverifiedLabel, VerifyResult } from '../../shared/contract/scale';
import { isClosedState, type Shipment } from '../../shared/contract/shipments';
import { normaliseScan } from '../../shared/scan/normaliseScan';
import type { WeighRepo } from '../store/weighRepo';
import type { WorkflowDeps } from '../workflows/workflowDeps';

export interface LabelCheckDeps {
  deps: Pick<WorkflowDeps, 'session' | 'lookup' | 'clock' | 'repos'>;
  repo: WeighRepo;
  enabled(): boolean;
  /** The open check changed (the Station screen shows "scan the label"). */
  onExpecting?(e: { deliveryId: number; barcodes: string[] } | null): void;
}

export function createLabelCheck(o: LabelCheckDeps) {
  const { deps, repo } = o;
  const now = () => deps.clock.now();
  const newest = () => {
    const s = deps.session();
    return s ? (repo.openChecks(s.accountId)[0] ?? null) : null;
  };
  const announce = () => {
    const c = newest();
    o.onExpecting?.(c ? { deliveryId: c.deliveryId, barcodes: c.barcodes.filter((b) => !c.seen.includes(b)) } : null);
  };

  return {
    /** A scan's labels are queued: its label is to be checked (when the option is on). */
    expect(entryId: number, accountId: string, s: Shipment): void {
      if (!o.enabled()) return;
      const barcodes = s.packages.map((p) => p.barcode).filter((b): b is string => !!b);
      if (!barcodes.length) return;
      repo.expectCheck({ entryId, accountId, deliveryId: s.deliveryId, barcodes, printedAt: now() });
      deps.repos.journal.note(entryId, 'label_expected', now());
      announce();
    },

    expecting(): { deliveryId: number; barcodes: string[] } | null {
      if (!o.enabled()) return null;
      const c = newest();
      return c ? { deliveryId: c.deliveryId, barcodes: c.barcodes.filter((b) => !c.seen.includes(b)) } : null;
    },

    async check(raw: string): Promise<VerifyResult> {
      const n = normaliseScan(raw);
      const code = n.ok ? n.code : raw.trim();
      const open = o.enabled() ? newest() : null;
      if (!open) return { kind: 'not_a_label', code };
      if (open.barcodes.includes(code)) {
        // Each package has its own label: the check is done when every one was scanned.
        const left = repo.seenLabel(open, code, now());
        if (!left.length) deps.repos.journal.note(open.entryId, 'label_verified', now());
        announce();
        return { kind: 'match', code, deliveryId: open.deliveryId, left };
      }
      // Whose label is it? A package barcode of a closed shipment is a label; anything else is a scan.
      const found = await deps.lookup(code);
      const s = found.kind === 'found' ? found.shipment : null;
      const isLabel = !!s && isClosedState(s.state) && s.packages.some((p) => p.barcode === code);
      if (!isLabel) return { kind: 'not_a_label', code };
      repo.mismatch(open.entryId);
      deps.repos.journal.note(open.entryId, 'label_mismatch', now(), `label_of_${s.deliveryId}`);
      return {
        kind: 'mismatch',
        code,
        expectedDeliveryId: open.deliveryId,
        expectedBarcodes: open.barcodes,
        labelDeliveryId: s.deliveryId,
      };
    },

    /** Labels of this account nobody checked (End of day). */
    unverified(): UnverifiedLabel[] {
      const s = deps.session();
      if (!s) return [];
      return repo.openChecks(s.accountId).map((c) => ({
        deliveryId: c.deliveryId,
        barcodes: c.barcodes.filter((b) => !c.seen.includes(b)),
        printedAt: c.printedAt,
      }));
    },
  };
}
