/**
 * Undo of a linked start, after its notice is gone: it stays until what runs changes, so the
 * palette, the menu and the tooltip offer it as long as the link's activity still runs. Pure: the
 * start and each new state in, whether Undo still stands out; the words the tooltip adds here.
 */
import * as l10n from '@vscode/l10n';
import { sameActivityID } from '../../protocol/rules';
import type { ActivityReference } from '../../protocol/types';
import type { TrackerState } from '../model/trackerState';
import { escapeMarkdown } from '../markup';
import { undoWords } from './linkNotice';
import type { Link } from './links';

/** What Undo takes back: the activity that ran before the link's start (undefined: nothing ran). */
export interface LinkUndo {
  readonly previous: ActivityReference | undefined;
  /**
   * The activity the link started (its id where the app or the recent list said it); `created`: the app said the start
   * created it, which Undo cannot take back (the app has no delete).
   */
  readonly started: {
    readonly activityID: string | undefined;
    readonly activityName: string;
    readonly created?: boolean | undefined;
  };
  /** The link's branch glob, where it is a branch's link; undefined for a folder's. */
  readonly branch: string | undefined;
  /** An answer showed the started activity running: from then on any other answer is a change. */
  readonly seen: boolean;
}

/** The undo of a start by `link`, before any answer showed it. */
export function linkUndo(link: Link, started: LinkUndo['started'], previous: ActivityReference | undefined): LinkUndo {
  return { previous, started, branch: link.branch, seen: false };
}

/**
 * Undo after a new state: kept while the started activity runs (on a break too), or while no
 * answer says what runs; gone once an answer shows another activity or none. Until an answer has
 * shown the start, one that still shows what ran before is an answer older than the start.
 */
export function undoAfter(undo: LinkUndo, state: TrackerState): LinkUndo | undefined {
  if (state.kind !== 'tracking' && state.kind !== 'idle') return undo;
  const running = state.kind === 'tracking' ? state.activity : undefined;
  if (running !== undefined && isStarted(undo, running)) return undo.seen ? undo : { ...undo, seen: true };
  if (undo.seen) return undefined;
  const before = undo.previous;
  const stillBefore =
    running === undefined
      ? before === undefined
      : before !== undefined && sameActivityID(before.activityID, running.activityID);
  return stillBefore ? undo : undefined;
}

function isStarted(undo: LinkUndo, running: ActivityReference): boolean {
  const { activityID, activityName } = undo.started;
  return activityID === undefined
    ? running.activityName === activityName
    : sameActivityID(activityID, running.activityID);
}

/** After Undo of a start that created its activity: it stays in the app, which has no delete (private: no name). */
export function createdStays(started: LinkUndo['started'], isPrivate: boolean): string | undefined {
  if (started.created !== true) return undefined;
  // What stays comes first: a toast without buttons shows one line.
  return isPrivate
    ? l10n.t('The activity the link created stays in the app: activities cannot be deleted here.')
    : l10n.t('{0} stays in the app: the link created it, and activities cannot be deleted here.', started.activityName);
}

/**
 * The tooltip's paragraph while Undo stands and no notice shows: which link started what runs,
 * and Undo. Private: that a link started it, without the branch or any name.
 */
export function undoParagraph(undo: Pick<LinkUndo, 'branch' | 'previous'>, isPrivate: boolean): string {
  const by = isPrivate
    ? l10n.t('Started by a link.')
    : undo.branch === undefined
      ? l10n.t('Started by the link for this folder.')
      : l10n.t('Started by the link for {0}.', escapeMarkdown(undo.branch));
  return `${by} ${undoWords(undo.previous?.activityName, isPrivate)}`;
}
