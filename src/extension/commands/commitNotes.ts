/**
 * The note Log Time offers from your commits made on this window's branch in the span being logged
 * (src/tracker/pickers/commitNote.ts). Read when the note step opens, never at activation or on a poll: through the
 * built-in Git extension's API where it is enabled, else one `git log` bounded in commits, bytes and time; beside it
 * `git var GIT_AUTHOR_IDENT` says who you are, as git itself decides it for a commit you make. Nothing is
 * read in an untrusted workspace (a repository's git config can name programs git runs, `gpg.program` among them) or
 * while the status bar is private (the box may be on a shared screen).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { errorMessage } from '../../platform/errors';
import { timeoutSignal } from '../../platform/timers';
import {
  authorEmailOf,
  commitNote,
  commitSubjects,
  GIT_LOG_FORMAT,
  MAX_COMMITS,
  parseGitLog,
  type Commit,
} from '../../tracker/pickers/commitNote';
import type { CommandServices } from './services';

/** The longest the note step waits for the commits: after it, the box opens empty. */
const READ_TIMEOUT_MS = 3_000;
/** The most output read from `git log`: MAX_COMMITS subjects are far less. */
const MAX_LOG_BYTES = 256 * 1024;

export interface OfferedNote {
  readonly note: string;
  readonly commits: number;
  readonly branch: string;
}

/** The built-in Git extension's API, as far as this reads it (its `git.d.ts`, API version 1). */
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): {
    /** The git the user set for VS Code (`git.path`), which the identity is asked of too; read as outside input. */
    readonly git?: { readonly path?: unknown };
    getRepository(uri: vscode.Uri): {
      log(options: { readonly maxEntries: number }): Promise<readonly GitCommit[]>;
    } | null;
  };
}

interface GitCommit {
  readonly message: string;
  readonly commitDate?: Date;
  readonly authorDate?: Date;
  readonly authorEmail?: string;
}

/** What was read: the commits, and your email where git could say it. */
interface ReadCommits {
  readonly commits: readonly Commit[];
  readonly you: string | undefined;
}

/** The note from the commits of the last `minutes` up to `nowMs`; undefined when none is offered, and why is logged. */
export async function offeredNote(
  services: CommandServices,
  minutes: number,
  nowMs = Date.now(),
): Promise<OfferedNote | undefined> {
  const place = services.branchTime.windowPlace;
  if (place === undefined || !vscode.workspace.isTrusted || services.settings().privateStatusBar) return undefined;
  const sinceMs = nowMs - minutes * 60_000;
  const deadline = timeoutSignal(READ_TIMEOUT_MS);
  const timedOut = new Promise<undefined>((resolve) => deadline.addEventListener('abort', () => resolve(undefined)));
  try {
    const read = await Promise.race([readCommits(place.root, sinceMs, deadline), timedOut]);
    if (read === undefined) {
      services.log.warn(`Log Time: the commits of ${place.root} took over ${READ_TIMEOUT_MS} ms; no note offered.`);
      return undefined;
    }
    const subjects = commitSubjects(read.commits, sinceMs, nowMs, read.you);
    const note = commitNote(subjects);
    const whose = read.you === undefined ? "anyone's (git names no author for you)" : 'yours';
    services.log.info(
      `Log Time: ${subjects.length} commit subjects on ${place.branch}, ${whose}, offered as the note.`,
    );
    return note === '' ? undefined : { note, commits: subjects.length, branch: place.branch };
  } catch (error) {
    services.log.info(`Log Time: no commits read from ${place.root} (${errorMessage(error)}); no note offered.`);
    return undefined;
  }
}

async function readCommits(root: string, sinceMs: number, deadline: AbortSignal): Promise<ReadCommits> {
  const api = await gitApi();
  const repository = api?.getRepository(vscode.Uri.file(root));
  const path = api?.git?.path;
  const git = typeof path === 'string' && path !== '' ? path : 'git';
  const you = runGit(git, root, ['var', 'GIT_AUTHOR_IDENT'], deadline).then(authorEmailOf, () => undefined);
  const commits = repository
    ? repository.log({ maxEntries: MAX_COMMITS }).then((log) =>
        log.map((commit) => ({
          committedMs: (commit.commitDate ?? commit.authorDate)?.getTime() ?? 0,
          message: commit.message,
          authorEmail: commit.authorEmail,
        })),
      )
    : gitLog(git, root, sinceMs, deadline);
  return { commits: await commits, you: await you };
}

/** The Git extension's API while it is enabled; undefined without it (then `git log` is run). */
async function gitApi(): Promise<ReturnType<GitExtension['getAPI']> | undefined> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (extension === undefined) return undefined;
  const git = extension.isActive ? extension.exports : await extension.activate();
  return git.enabled ? git.getAPI(1) : undefined;
}

/** One `git log` of HEAD since `sinceMs`: at most MAX_COMMITS commits. */
async function gitLog(git: string, root: string, sinceMs: number, deadline: AbortSignal): Promise<Commit[]> {
  const since = `--since=@${Math.floor(sinceMs / 1000)}`;
  return parseGitLog(
    await runGit(
      git,
      root,
      [
        // No signature checks: they would run the program the repository's config names.
        ...['-c', 'log.showSignature=false', 'log', '--no-show-signature', '--no-color'],
        ...[`--max-count=${MAX_COMMITS}`, since, `--format=${GIT_LOG_FORMAT}`, 'HEAD'],
      ],
      deadline,
    ),
  );
}

/** A git command's output in `root`: at most MAX_LOG_BYTES of it, until `deadline`, never a prompt or a pager. */
async function runGit(git: string, root: string, args: readonly string[], deadline: AbortSignal): Promise<string> {
  const { stdout } = await promisify(execFile)(git, args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: MAX_LOG_BYTES,
    signal: deadline,
    windowsHide: true,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat' },
  });
  return stdout;
}
