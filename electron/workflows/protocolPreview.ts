/**
 * The preview of a collection protocol's PDF: the station's stored copy, or the
 * service's (spec "GET /api/v2/collection-protocols") kept for the next time.
 */
import type { PreviewPage } from '../../shared/contract/printing';
import type { Handlers } from '../rpc/rpcServer';
import { previewPdf } from '../printing/labelPreview';
import { StationError } from '../base/stationError';
import { protocolPdf } from './endOfDay';
import type { WorkflowDeps } from './workflowDeps';

export async function protocolPreview(deps: WorkflowDeps, collectionProtocolId: number): Promise<PreviewPage[]> {
  const s = deps.session();
  if (!s) throw new StationError('login_required', 'The station is not logged in to the service. Log in again.');
  const pdf = await protocolPdf(deps, s, collectionProtocolId);
  return previewPdf(pdf);
}

export function createProtocolPreviewHandlers(deps: WorkflowDeps): Pick<Handlers, 'endOfDay.protocolPreview'> {
  return { 'endOfDay.protocolPreview': ({ collectionProtocolId }) => protocolPreview(deps, collectionProtocolId) };
}
