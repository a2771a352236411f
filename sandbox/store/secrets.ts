/** Random tokens and one-way hashes for everything secret the sandbox keeps. */
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Spec "Flow" 3 and 7: codes and tokens are 40 characters of lowercase letters and digits. */
export function randomToken(length = 40): string {
  const out: string[] = [];
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 252 = 7 * 36: rejecting the top values keeps every character equally likely.
      if (byte < 252 && out.length < length) out.push(ALPHABET[byte % 36]!);
    }
  }
  return out.join('');
}

/** Codes and tokens are long random strings: a plain SHA-256 is enough to look them up by. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Passwords and client secrets are chosen by people: salted scrypt. */
export function hashSecret(secret: string): string {
  const salt = randomBytes(16);
  return `${salt.toString('hex')}:${scryptSync(secret, salt, 32).toString('hex')}`;
}

/**
 * Whether `secret` matches a hashSecret result. Asynchronous: scrypt runs in libuv's thread pool,
 * not on the event loop (a login or token request held the loop 50-90 ms with scryptSync).
 */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [saltHex, hashHex] = stored.split(':');
  if (!saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, 'hex');
  const actual = await new Promise<Buffer>((resolve, reject) =>
    scrypt(secret, Buffer.from(saltHex, 'hex'), expected.length, (err, key) => (err ? reject(err) : resolve(key))),
  );
  return timingSafeEqual(actual, expected);
}
