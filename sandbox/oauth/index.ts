/** The authorization server's routes (spec "Authentication"). */
import type { Router } from '../http/router';
import type { Services } from '../services';
import { addAuthorizeRoutes } from './authorize';
import { addRegisterRoutes } from './registerPage';
import { addTokenRoute } from './token';

export { requireScope, type Caller } from './bearer';
export { SCOPES, type Scope } from './scopes';

/** `registerSecret`: when set, client registration answers only a request carrying it (the admin secret). */
export function addOAuthRoutes(router: Router, s: Services, registerSecret?: string): void {
  addAuthorizeRoutes(router, s);
  addTokenRoute(router, s);
  addRegisterRoutes(router, s, registerSecret);
}
