/**
 * A worker's PIN is kept only as a salted bcrypt hash (bcryptjs: maintained, pure JS, so it runs
 * unchanged in the Electron utility process and the web host). Cost 10: about a tenth of a second
 * a check, slow enough that a stolen database does not give up 4-digit PINs for free, quick
 * enough for a sign-in at the desk.
 */
import bcrypt from 'bcryptjs';

const COST = 10;

export const hashPin = (pin: string): Promise<string> => bcrypt.hash(pin, COST);

export const pinMatches = (pin: string, hash: string): Promise<boolean> => bcrypt.compare(pin, hash);
