/**
 * Printers, routing and the durable print queue, wired by the composition root
 * (electron/station.ts): the printing service with the station's seam for drivers, its job changes
 * handed to the scan lane at once (the pages get them gathered), its errors told to the station's
 * faults, and the printers as the status shows them.
 */
import type { JobView } from '../../shared/contract/printing';
import type { StationStatus } from '../../shared/contract/status';
import type { Clock } from '../base/clock';
import type { Logger } from '../rpc/rpcServer';
import type { Emit } from '../status/eventBus';
import type { StationFaults } from '../status/wireFaults';
import type { StationStore } from '../store/wireStore';
import { createPrintingService, type DriverFactory, type PrintingServiceOptions } from './printingService';
import { onRasterFallback } from './zplPrepare';

export interface PrintingWiring {
  store: StationStore;
  clock: Clock;
  dataDir: string;
  /** Makes a printer's driver from its settings (StationOptions.printerDrivers). */
  printerDrivers?: DriverFactory;
  language: () => 'en' | 'cs';
  emit: Emit;
  /** The print queue's cancel and "send again now", recorded with who did them. */
  audit: { recordJobAction: PrintingServiceOptions['recordJobAction'] };
  /** Every job change as it happens (the scan lane's waiter and the outcomes it follows). */
  onJobChanged(job: JobView): void;
  faults: StationFaults;
  log: Logger;
}

export async function wirePrinting(o: PrintingWiring) {
  // A label the resolution converter cannot rewrite goes out as one graphic: said in the station's log.
  const stopRasterLog = onRasterFallback((info) =>
    o.log.warn('ZPL label sent as a graphic: the converter does not know its commands', info),
  );
  const service = await createPrintingService({
    recordJobAction: o.audit.recordJobAction,
    db: o.store.db,
    durable: o.store.durable,
    clock: o.clock,
    dataDir: o.dataDir,
    createDriver: o.printerDrivers,
    language: o.language,
    emit: (name: 'printing.jobs' | 'printing.printerState', payload: unknown) => o.emit(name, payload as never),
    // The waiter hears every change at once; the pages get them gathered (`printing.jobs`).
    onJobChanged: o.onJobChanged,
    // A lane stopped by the station's own error (its store cannot be read or written): logged, never an unhandled rejection.
    onLaneError: (printerId, err) => {
      if (!o.faults.storage.check(err))
        o.log.error('a print lane stopped on an error of the station', {
          printerId,
          error: err instanceof Error ? err.message : String(err),
        });
    },
    onProbeError: (err) => o.faults.fault('the printer states could not be refreshed', err),
  });
  return {
    service,
    /** The printers as the status lists them (the top bar's pill, the Status screen). */
    forStatus(): StationStatus['printers'] {
      return service.printers().map((p) => ({
        id: p.id,
        name: p.name,
        kind: p.connection.kind,
        state: p.status.state,
        reasonCode: p.status.state === 'ready' ? null : p.status.reasonCode,
        reason: p.status.state === 'ready' ? null : p.status.reason,
      }));
    },
    async close(): Promise<void> {
      stopRasterLog();
      await service.close();
    },
  };
}
