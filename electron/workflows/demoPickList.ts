/**
 * The demo pick list: the built-in sandbox's prepared shipments as Code 128
 * barcodes, printable on the office printer route or scannable from the screen, so a new user
 * tries scan-to-close without an e-shop of their own. Only for an account on the built-in
 * sandbox: on a real service these would be a company's real orders, not a demo.
 */
import type { DemoPickItem } from '../../shared/contract/demo';
import type { PreviewPage } from '../../shared/contract/printing';
import { shipmentStates } from '../../shared/contract/shipments';
import type { Handlers } from '../rpc/rpcServer';
import { renderDemoPickListPdf, type PickListLanguage } from '../documents/demoPickListPdf';
import { previewPdf } from '../printing/labelPreview';
import { StationError } from '../base/stationError';
import { printOnOfficePrinter } from './officeSheet';
import type { WorkflowDeps } from './workflowDeps';

const PAGE = 500;
/** A pick list longer than this is no longer a demo: the first ones are enough to try. */
const MAX_ITEMS = 200;

export interface DemoPickListDeps {
  deps: WorkflowDeps;
  /** The active account when it is on the built-in sandbox (the demo company, or another sandbox login); else null. */
  sandboxAccount(): { companyName: string } | null;
  /** The language when the renderer names none (the station's setting, or the system's). */
  language(): PickListLanguage;
}

export function createDemoPickList(o: DemoPickListDeps) {
  const { deps } = o;

  function demoSession() {
    const account = o.sandboxAccount();
    if (!account) {
      throw new StationError(
        'not_demo',
        'The demo pick list is only for the built-in sandbox. The active company uses a real service: scan its own orders instead.',
      );
    }
    const s = deps.session();
    if (!s)
      throw new StationError(
        'login_required',
        'The demo company is not logged in to the built-in sandbox. Restart the station or log in under Settings → Accounts.',
      );
    return { ...s, companyName: account.companyName };
  }

  /**
   * The shipments still open (prepared) at the sandbox. The sandbox's answer decides: a shipment
   * closed elsewhere (the web application, another station, a scan whose answer was lost) is not
   * in it, though the cache may still hold it as prepared, and is left off the list. Only when the
   * sandbox cannot be read does the cache stand in.
   */
  async function items(): Promise<DemoPickItem[]> {
    const s = demoSession();
    let open: Set<number> | null = new Set();
    try {
      for await (const page of s.client.pageDeliveries({
        filters: { deliveryState: String(shipmentStates.prepared) },
      })) {
        deps.recordDeliveries(s.accountId, page);
        for (const d of page) open.add(d.deliveryId);
      }
    } catch (err) {
      open = null;
      deps.log.warn('demo pick list: the sandbox could not be read; using the cache', {
        error: (err as Error).message,
      });
    }
    const out: DemoPickItem[] = [];
    for (let offset = 0; out.length < MAX_ITEMS; offset += PAGE) {
      const page = deps.repos.shipments.query(s.accountId, { states: [shipmentStates.prepared], offset, limit: PAGE });
      for (const it of page.items) {
        if (open && !open.has(it.deliveryId)) continue;
        out.push({
          code: it.externalId ?? String(it.deliveryId),
          carrier: it.agent ?? '',
          recipientName: it.recipientName,
          deliveryId: it.deliveryId,
        });
      }
      if (page.items.length < PAGE) break;
    }
    // The cache pages newest first; the demo reads best in the seed's order (ORD-1001 first).
    return out.sort((a, b) => a.deliveryId - b.deliveryId).slice(0, MAX_ITEMS);
  }

  async function pdf(language: PickListLanguage | undefined): Promise<{ items: DemoPickItem[]; pdf: Buffer }> {
    const list = await items();
    const { companyName } = demoSession();
    return {
      items: list,
      pdf: await renderDemoPickListPdf(list, {
        language: language ?? o.language(),
        created: deps.clock.now(),
        companyName,
      }),
    };
  }

  return {
    items,
    pdf,
    async pickList(language?: PickListLanguage): Promise<{ items: DemoPickItem[]; pages: PreviewPage[] }> {
      const made = await pdf(language);
      // 96 dpi: the PDF's bars are laid out to whole pixels at exactly this resolution.
      return { items: made.items, pages: await previewPdf(made.pdf, 96) };
    },
    async printPickList(language?: PickListLanguage): Promise<{ jobId: number }> {
      const made = await pdf(language);
      return printOnOfficePrinter(deps, { pdf: made.pdf, labelRef: 'demo:pick-list', title: 'Demo pick list' });
    },
  };
}

export function createDemoPickListHandlers(
  o: DemoPickListDeps,
): Pick<Handlers, 'demo.pickList' | 'demo.printPickList'> {
  const demo = createDemoPickList(o);
  return {
    'demo.pickList': ({ language }) => demo.pickList(language),
    'demo.printPickList': ({ language }) => demo.printPickList(language),
  };
}
