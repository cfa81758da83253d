/** Real git in temporary repositories, and a queue of branch reports to await one by one. */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BranchChange } from '../../src/git/branchWatcher';

const IDENTITY = [
  '-c',
  'user.name=Test',
  '-c',
  'user.email=test@example.invalid',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'init.defaultBranch=main',
];

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...IDENTITY, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** git without blocking the event loop, so the watcher sees each step as it happens. */
export function gitAsync(cwd: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', [...IDENTITY, ...args], { cwd, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/** Like git(), for commands expected to fail (a rebase that stops on a conflict). */
export function gitMayFail(cwd: string, ...args: string[]): void {
  try {
    git(cwd, ...args);
  } catch {
    // The state it leaves behind is what the test looks at.
  }
}

const madeFolders: string[] = [];

/** A repository on `main` with one commit, plus the given branches made from it. */
export async function makeRepository(name = 'repo', branches: string[] = []): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'tt-git-'));
  madeFolders.push(parent);
  const root = join(parent, name);
  execFileSync('git', [...IDENTITY, 'init', '-q', root]);
  await writeFile(join(root, 'file.txt'), 'one\n');
  git(root, 'add', '.');
  git(root, 'commit', '-q', '-m', 'first');
  for (const branch of branches) git(root, 'branch', branch);
  return root;
}

/** Removes every repository makeRepository made so far (an `after` hook of each suite). */
export async function removeRepositories(): Promise<void> {
  const folders = madeFolders.splice(0);
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
}

/** Things that arrive over time, awaited one by one (reports, reads). */
export class Arrivals<T> {
  private readonly received: T[] = [];
  private waiter: (() => void) | undefined;

  readonly push = (item: T): void => {
    this.received.push(item);
    this.waiter?.();
  };

  /** What has arrived and was not awaited yet. */
  get all(): readonly T[] {
    return this.received;
  }

  /** Resolves with the first arrival (already here or still to come) that matches. */
  async first(matches: (item: T) => boolean, what: string, timeoutMs = 5_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.received.findIndex(matches);
      if (index >= 0) return this.received.splice(0, index + 1)[index]!;
      this.received.length = 0;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Timed out waiting for ${what}.`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = undefined;
    }
  }
}

/** Branch reports in arrival order, awaited one at a time. */
export class ChangeQueue extends Arrivals<BranchChange> {
  /** The next report, or a failure naming what was awaited. */
  next(what: string, timeoutMs = 5_000): Promise<BranchChange> {
    return this.first(() => true, `a branch report: expected ${what}`, timeoutMs);
  }
}
