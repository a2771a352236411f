/**
 * The one RPC contract between the renderer (untrusted) and the station core.
 *
 * Each method declares its params and result schema; each event its payload schema. Types are
 * inferred from the schemas, never written twice. The core validates every call's params
 * against these schemas before a handler runs (electron/rpc/rpcServer.ts).
 *
 * Domain issues add their methods in their own modules (shared/contract/*.ts) and spread them
 * here; a duplicate name fails at start-up (see defineMethods).
 */
import { z } from 'zod';
import { statusMethods, statusEvents } from './contract/status';
import { printingMethods, printingEvents } from './contract/printing';
import { shipmentMethods, shipmentEvents } from './contract/shipments';
import { workflowMethods, workflowEvents } from './contract/workflows';
import { accountMethods, accountEvents } from './contract/accounts';
import { shipmentActionMethods } from './contract/shipmentActions';
import { newShipmentMethods } from './contract/newShipment';
import { demoMethods } from './contract/demo';
import { endOfDayMethods } from './contract/endOfDay';
import { scaleMethods, scaleEvents } from './contract/scale';
import { auditMethods } from './contract/audit';
import { statisticsMethods } from './contract/statistics';
import { operatorEvents, operatorMethods } from './contract/operators';
import { deskCommandMethods } from './contract/deskCommands';
import { retentionMethods } from './contract/retention';
import { metricsMethods } from './contract/metrics';
import { cameraMethods } from './contract/camera';
import { shelfEvents, shelfMethods } from './contract/shelf';
import { packagesMethods } from './contract/packages';

export interface MethodSpec<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  params: P;
  result: R;
  /**
   * A call a page makes by itself to follow the core (on opening, after an event), not a worker's
   * action: it does not keep a desk's worker signed in (electron/operators/operators.ts).
   */
  reads?: boolean;
  /**
   * A worker's work on parcels (a scan, a close, a print or reprint, a cancellation, a queue action):
   * it records who did it, so a desk that requires a sign-in refuses it while nobody is signed in.
   * Settings stay open, so an admin can always change the desk.
   */
  work?: boolean;
}

/** Joins domain method maps; a method declared twice is a programming error caught at start-up. */
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

export function defineMethods<T extends Record<string, MethodSpec>[]>(...maps: T): UnionToIntersection<T[number]> {
  const out: Record<string, MethodSpec> = {};
  for (const map of maps) {
    for (const [name, spec] of Object.entries(map)) {
      if (name in out) throw new Error(`RPC method declared twice: ${name}`);
      out[name] = spec;
    }
  }
  return out as UnionToIntersection<T[number]>;
}

export const methods = defineMethods(
  statusMethods,
  printingMethods,
  shipmentMethods,
  workflowMethods,
  accountMethods,
  shipmentActionMethods,
  newShipmentMethods,
  endOfDayMethods,
  demoMethods,
  scaleMethods,
  operatorMethods,
  auditMethods,
  statisticsMethods,
  deskCommandMethods,
  retentionMethods,
  metricsMethods,
  cameraMethods,
  shelfMethods,
  packagesMethods,
);
export const events = {
  ...statusEvents,
  ...printingEvents,
  ...shipmentEvents,
  ...workflowEvents,
  ...accountEvents,
  ...scaleEvents,
  ...operatorEvents,
  ...shelfEvents,
};

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type ParamsOf<M extends MethodName> = z.input<Methods[M]['params']>;
export type ResultOf<M extends MethodName> = z.output<Methods[M]['result']>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(methods, name);
}
