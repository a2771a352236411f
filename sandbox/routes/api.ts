/**
 * GET /api/ (spec "GET /api/"): the unversioned test resource, no authentication, cacheable with
 * ETag / If-None-Match. The body is the sandbox's choice (spec: "not shown"): the bare envelope.
 * The station's health check relies on 200 + ETag and 304 on a matching If-None-Match.
 */
import { header } from '../http/context';
import { envelope, notModified } from '../http/envelope';
import { etagOf, noneMatchHits } from '../http/etag';
import { httpMessages } from '../http/messages';
import type { Router } from '../http/router';

export function addApiIndexRoute(router: Router): void {
  router.add(
    'GET',
    '/api/',
    (ctx) => {
      // The representation depends only on format and language, so the tag does too.
      const etag = etagOf('api-index', ctx.format, ctx.lang);
      if (noneMatchHits(header(ctx, 'if-none-match'), etag)) return notModified(etag);
      return envelope(200, httpMessages.apiRunning, { headers: { etag } });
    },
    { api: true },
  );
}
