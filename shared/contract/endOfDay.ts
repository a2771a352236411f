/**
 * End of day additions to the workflow contract: the preview of a stored
 * collection protocol's PDF, so the worker sees what will print before reprinting it.
 */
import { z } from 'zod';
import { previewPage } from './printing';

export const endOfDayMethods = {
  /** The protocol's PDF pages as PNG (base64), from this station's copy or the service's. */
  'endOfDay.protocolPreview': {
    params: z.object({ collectionProtocolId: z.number().int().positive() }).strict(),
    result: z.array(previewPage),
  },
};
