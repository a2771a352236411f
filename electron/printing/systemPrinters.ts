/**
 * System print queues as the OS spooler knows them. On macOS and Linux that is CUPS (`lpstat`);
 * Windows' spooler is listed by pdf-to-printer in the printing module.
 */
import { execFile } from 'node:child_process';

export interface SystemQueue {
  name: string;
  enabled: boolean;
}

/** Lists CUPS queues; an absent or stopped CUPS gives an empty list, not an error. */
export function listCupsQueues(timeoutMs = 3000): Promise<SystemQueue[]> {
  return new Promise((resolve) => {
    execFile('lpstat', ['-p'], { timeout: timeoutMs, env: { ...process.env, LC_ALL: 'C' } }, (err, stdout) => {
      if (err && !stdout) return resolve([]);
      const queues: SystemQueue[] = [];
      for (const line of stdout.split('\n')) {
        const m = /^printer (\S+) (?:is )?(.*)$/.exec(line);
        if (m) queues.push({ name: m[1]!, enabled: !/disabled/.test(m[2]!) });
      }
      resolve(queues);
    });
  });
}
