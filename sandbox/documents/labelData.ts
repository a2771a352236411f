/**
 * The data printed on one package label (spec "GET /api/v3/deliveries/tickets" and
 * "GET /api/v3/deliveries/zpl": one label per package of a closed shipment). The route builds
 * these from stored shipments; the generators here only lay them out.
 *
 * Amounts and weights stay exact decimal strings ("1234.5", "2,35"): a label must show the
 * number the client sent, never a float's rounding of it.
 */
export interface LabelParty {
  name: string;
  /** Street, postal code + city, country: already split into printable lines. */
  lines: string[];
}

export interface LabelData {
  deliveryId: number;
  agent: { code: string; name: string };
  /** Carrier number (spec "deliveryNumber"), filled when the shipment was closed. */
  deliveryNumber: string;
  /** 1-based index of this package within the shipment. */
  packageIndex: number;
  packageCount: number;
  /** The package barcode (spec "packages[].barcode"), printed as Code 128. */
  barcode: string;
  /** Exact decimal, kilograms. */
  weight: string;
  sender: LabelParty;
  recipient: LabelParty & { contactPerson?: string; phone?: string; pickUpPlace?: string };
  cod?: { amount: string; currency: string };
  ticketNote?: string;
  created: Date;
  deliveryTypeName?: string;
}

export type DocumentErrorCode = 'NO_LABELS' | 'INVALID_LABEL' | 'INVALID_PROTOCOL' | 'FONT_MISSING';

/**
 * Bad input to a document generator. The route turns it into a 422/500 with `message`;
 * `field` names the offending value (like "[2].barcode") so the message is actionable.
 */
export class DocumentError extends Error {
  readonly code: DocumentErrorCode;
  readonly field: string | undefined;
  constructor(code: DocumentErrorCode, message: string, field?: string) {
    super(field ? `${field}: ${message}` : message);
    this.name = 'DocumentError';
    this.code = code;
    this.field = field;
  }
}

/** Code 128 encodes ASCII 32..126 in sets A/B; anything else cannot be scanned back. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
export const MAX_BARCODE_LENGTH = 40;

export function checkBarcode(barcode: unknown, field: string, code: DocumentErrorCode): string {
  if (typeof barcode !== 'string' || barcode.length === 0)
    throw new DocumentError(code, 'a barcode is required', field);
  if (!PRINTABLE_ASCII.test(barcode)) {
    throw new DocumentError(
      code,
      `barcode "${barcode}" has characters Code 128 cannot print (printable ASCII only)`,
      field,
    );
  }
  if (barcode.length > MAX_BARCODE_LENGTH) {
    throw new DocumentError(
      code,
      `barcode is longer than ${MAX_BARCODE_LENGTH} characters and would not fit a label`,
      field,
    );
  }
  return barcode;
}

/** Throws a DocumentError naming the first field a label cannot be printed with. */
export function checkLabel(label: LabelData, path = ''): void {
  const f = (name: string) => `${path}${path ? '.' : ''}${name}`;
  const bad = (name: string, message: string) => new DocumentError('INVALID_LABEL', message, f(name));
  if (!label || typeof label !== 'object')
    throw new DocumentError('INVALID_LABEL', 'label data is missing', path || undefined);
  checkBarcode(label.barcode, f('barcode'), 'INVALID_LABEL');
  if (!Number.isInteger(label.packageCount) || label.packageCount < 1)
    throw bad('packageCount', 'must be a whole number of at least 1');
  if (!Number.isInteger(label.packageIndex) || label.packageIndex < 1 || label.packageIndex > label.packageCount) {
    throw bad('packageIndex', `must be between 1 and packageCount (${label.packageCount})`);
  }
  if (!isDecimal(label.weight)) throw bad('weight', `"${String(label.weight)}" is not a decimal number of kilograms`);
  if (label.cod) {
    if (!isDecimal(label.cod.amount)) throw bad('cod.amount', `"${String(label.cod.amount)}" is not a decimal amount`);
    if (!label.cod.currency) throw bad('cod.currency', 'a COD amount needs its currency');
  }
  if (!(label.created instanceof Date) || Number.isNaN(label.created.getTime()))
    throw bad('created', 'must be a valid date');
  if (!label.agent?.name) throw bad('agent.name', 'the carrier name is required');
  if (!label.recipient?.name) throw bad('recipient.name', 'the recipient name is required');
  if (!label.sender?.name) throw bad('sender.name', 'the sender name is required');
}

const DECIMAL = /^-?\d+([.,]\d+)?$/;

export function isDecimal(v: unknown): v is string {
  return typeof v === 'string' && DECIMAL.test(v.trim());
}
