/**
 * Scales and label verification in the RPC contract: the scale's settings and live
 * reading (Settings → Scale), the weighing a scan waits for (Station screen: countdown, skip), and
 * the check of a printed label against its parcel.
 */
import { z } from 'zod';

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);
const unit = z.enum(['mg', 'g', 'kg', 'oz', 'lb']);

/** What the scale says now: only `stable` carries a weight a shipment may get. */
const scaleReading = z.discriminatedUnion('state', [
  z.object({ state: z.literal('stable'), value: decimal, unit, kg: decimal }),
  z.object({ state: z.literal('motion'), value: decimal.nullable(), unit: unit.nullable() }),
  z.object({ state: z.literal('overload') }),
  z.object({ state: z.literal('underload') }),
  z.object({ state: z.literal('fault'), code: z.string(), message: z.string() }),
  /** `code` says why in words the screen translates; `message` is the English sentence with the system's details (the log). */
  z.object({
    state: z.literal('disconnected'),
    code: z.enum(['no_scale', 'open_failed', 'port_closed', 'port_failed', 'silent', 'device_gone']).optional(),
    message: z.string(),
  }),
]);
export type ScaleReading = z.infer<typeof scaleReading>;

export const scaleSettings = z
  .object({
    /** none: no scale (scans close at once); mt-sics / continuous: a serial scale; hid: a USB HID POS scale. */
    kind: z.enum(['none', 'mt-sics', 'continuous', 'hid']),
    /** The serial port (/dev/ttyUSB0, COM3) or the HID device path. */
    path: z.string().max(500),
    baudRate: z.number().int().positive().max(1_000_000),
    /** A weighed parcel differing from its shipment by more than this (kg) updates the shipment. */
    toleranceKg: decimal,
    /**
     * The weight check: a weighed package differing from the shipment's weight by
     * more than this share (% of the shipment's weight) is not sent silently: the worker is asked
     * first (wrong contents?). Absent in settings saved before: 30.
     */
    askAbovePercent: z.number().int().min(1).max(1000).default(30),
    /** How the weight is shown to the worker (the service always gets kilograms). */
    displayUnit: z.enum(['kg', 'g', 'lb', 'oz']),
    /** How long a scan waits for a stable weight before it closes with the shipment's weight. */
    waitSeconds: z.number().int().min(1).max(120),
    /** After each label, the worker scans it and the station checks it belongs to the parcel. */
    verifyLabels: z.boolean(),
  })
  .strict();
export type ScaleSettings = z.infer<typeof scaleSettings>;

export const defaultScaleSettings: ScaleSettings = {
  kind: 'none',
  path: '',
  baudRate: 9600,
  toleranceKg: '0.05',
  askAbovePercent: 30,
  displayUnit: 'kg',
  waitSeconds: 10,
  verifyLabels: false,
};

const scaleDiscovery = z.object({
  serial: z.array(z.object({ path: z.string(), label: z.string() })),
  hid: z.array(z.object({ path: z.string(), label: z.string() })),
  /** Why a list is empty when it could not be made (e.g. no udevadm): the path can be typed. `detail`: the system's words. */
  problems: z.array(
    z.object({
      kind: z.enum(['serial', 'hid']),
      detail: z.string(),
      /** A system program the listing needs and this computer lacks ("udevadm"). */ missingTool: z.string().optional(),
    }),
  ),
});
export type ScaleDiscovery = z.infer<typeof scaleDiscovery>;

/** A scan waiting for the scale: which package, how long still. Null when nothing is being weighed. */
const weighing = z
  .object({
    scanId: z.number().int(),
    deliveryId: z.number().int(),
    /** 1-based package being weighed, of `packageCount`. */
    packageNumber: z.number().int(),
    packageCount: z.number().int(),
    /** The shipment's weight of this package (kg). */
    expectedKg: decimal.nullable(),
    /** When the wait ends and the shipment's own weight is used. */
    deadline: z.string(),
  })
  .nullable();
export type Weighing = z.infer<typeof weighing>;

const verifyResult = z.discriminatedUnion('kind', [
  /** The label belongs to the parcel last closed; `left`: its package labels still to scan (a multi-package parcel). */
  z.object({ kind: z.literal('match'), code: z.string(), deliveryId: z.number().int(), left: z.array(z.string()) }),
  /** The label belongs to another parcel: both named. */
  z.object({
    kind: z.literal('mismatch'),
    code: z.string(),
    expectedDeliveryId: z.number().int(),
    expectedBarcodes: z.array(z.string()),
    labelDeliveryId: z.number().int().nullable(),
  }),
  /** No check waits, or the code is no label (the next parcel's code): the UI sends it to the scan line. */
  z.object({ kind: z.literal('not_a_label'), code: z.string() }),
]);
export type VerifyResult = z.infer<typeof verifyResult>;

const unverifiedLabel = z.object({
  deliveryId: z.number().int(),
  barcodes: z.array(z.string()),
  printedAt: z.string(),
});
export type UnverifiedLabel = z.infer<typeof unverifiedLabel>;

const labelExpected = z.object({ deliveryId: z.number().int(), barcodes: z.array(z.string()) }).nullable();
export type LabelExpected = z.infer<typeof labelExpected>;

const none = z.object({}).strict();

export const scaleMethods = {
  'scale.discover': { params: none, result: scaleDiscovery },
  'scale.getSettings': { reads: true, params: none, result: scaleSettings },
  'scale.setSettings': { params: scaleSettings, result: scaleSettings },
  'scale.reading': { reads: true, params: none, result: scaleReading },
  /** The scan waiting for the scale now (a screen opened mid-wait), or null. */
  'scale.weighing': { reads: true, params: none, result: weighing },
  /** The worker's key: the scan waiting for the scale closes with the shipment's weight. */
  'scale.skipWeighing': { params: none, result: z.object({ skipped: z.boolean() }) },
  /** The worker scanned a printed label: does it belong to the parcel? */
  'verify.check': { work: true, params: z.object({ code: z.string().min(1).max(200) }).strict(), result: verifyResult },
  'verify.expecting': { reads: true, params: none, result: labelExpected },
  /** Labels printed with the check on that nobody verified. */
  'verify.unverified': { reads: true, params: none, result: z.array(unverifiedLabel) },
};

export const scaleEvents = {
  'scale.reading': scaleReading,
  'scale.weighing': weighing,
  /** The labels the worker is to scan now (verify after printing: those not scanned yet), or null. */
  'verify.expecting': labelExpected,
};
