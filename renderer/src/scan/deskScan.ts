/**
 * A scan meant for the desk itself, wherever it was typed (the scan line anywhere, the Station box,
 * the demo pick list): a worker's badge signs them in, a command barcode acts as its key. True when
 * the scan was one of them — it is then no parcel and goes nowhere else.
 */
import { takeBadgeScan } from '../operators/badgeScan';
import { takeDeskCommand } from './deskCommand';

export const takeDeskScan = (code: string): boolean => takeBadgeScan(code) || takeDeskCommand(code);
