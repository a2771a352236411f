/**
 * System print queues as the OS spooler knows them. On macOS and Linux that is CUPS (`lpstat`);
 * Windows' spooler is listed by pdf-to-printer in the printing module.
 */
import { execFile } from 'node:child_process';

export interface SystemQueue {
  name: string;
  enabled: boolean;
  /** The CUPS device URI (socket://host:9100, usb://Zebra/..., cups-pdf:/), when known. */
  deviceUri?: string;
}

function lpstat(args: string[], timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('lpstat', args, { timeout: timeoutMs, env: { ...process.env, LC_ALL: 'C' } }, (err, stdout) => {
      resolve(err && !stdout ? null : stdout);
    });
  });
}

/** Lists CUPS queues; an absent or stopped CUPS gives an empty list, not an error. */
export async function listCupsQueues(timeoutMs = 3000): Promise<SystemQueue[]> {
  const [printers, devices] = await Promise.all([lpstat(['-p'], timeoutMs), lpstat(['-v'], timeoutMs)]);
  if (!printers) return [];
  const uris = new Map<string, string>();
  for (const line of (devices ?? '').split('\n')) {
    const m = /^device for (\S+?):\s*(\S+)/.exec(line);
    if (m) uris.set(m[1]!, m[2]!);
  }
  const queues: SystemQueue[] = [];
  for (const line of printers.split('\n')) {
    const m = /^printer (\S+) (?:is )?(.*)$/.exec(line);
    if (m) {
      const uri = uris.get(m[1]!);
      queues.push({ name: m[1]!, enabled: !/disabled/.test(m[2]!), ...(uri ? { deviceUri: uri } : {}) });
    }
  }
  return queues;
}
