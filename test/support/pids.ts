/** Process ids for lock tests: one that ran and ended, as a killed server leaves in its lock. */
import { spawn } from 'node:child_process';
import { thisMachine } from '../../src/platform/machine';

export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  if (child.pid === undefined) throw new Error('The short-lived process got no pid.');
  return child.pid;
}

/** A lock or claim record as the file lock writes it, naming `pid` on this machine (or on `host`, another). */
export async function lockRecord(pid: number, token: string, host?: string): Promise<string> {
  const here = await thisMachine();
  const where = host === undefined ? { host: here.hostname, machine: here.id } : { host, machine: `other:${host}` };
  return `${JSON.stringify({ pid, ...where, token })}\n`;
}
