/**
 * What a scale says, whatever its protocol (the model lives in the contract: shared/contract/scale.ts).
 * Only `stable` carries a weight that may be used: a moving, overloaded, under-zero or silent
 * scale is a state the worker sees, never a number a shipment gets.
 */
export type { ScaleReading } from '../../shared/contract/scale';
