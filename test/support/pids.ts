/** Process ids for lock tests: one that ran and ended, as a killed server leaves in its lock. */
import { spawn } from 'node:child_process';

export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  if (child.pid === undefined) throw new Error('The short-lived process got no pid.');
  return child.pid;
}
