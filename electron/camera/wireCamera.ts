/**
 * Proof-of-packing photos, wired by the composition root (electron/station.ts): the camera's RPC
 * handlers and their PDF (with the label as the printer got it), and the photos as the retention
 * sweeps them: their files go after their rows, following the labels' window.
 */
import type { PrintingService } from '../printing/printingService';
import { createPhotosRepo } from '../store/photosRepo';
import type { StationStore } from '../store/wireStore';
import type { WorkflowDeps } from '../workflows/workflowDeps';
import { createCameraHandlers } from './cameraHandlers';
import { sweepPhotoFiles } from './photoFiles';

export function wireCamera(o: { store: StationStore; dataDir: string; deps: WorkflowDeps; printing: PrintingService }) {
  const photos = createPhotosRepo(o.store.db);
  return {
    /** For the retention: the photos' files swept after their rows went, and their usage for Status. */
    retained: {
      sweep: (beforeDay: string) => sweepPhotoFiles(o.dataDir, beforeDay, (file) => photos.named(file)),
      usage: () => photos.usage(),
    },
    handlers: createCameraHandlers({
      db: o.store.db,
      deps: o.deps,
      photos,
      dataDir: o.dataDir,
      settings: o.store.settings,
      // The label as the printer got it, for the proof-of-packing PDF.
      preview: (jobId) => Promise.resolve(o.printing.handlers['printing.preview']!({ jobId })),
    }),
  };
}
