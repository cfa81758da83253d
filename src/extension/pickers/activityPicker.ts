/**
 * The activity picker of Start and Log Time: a QuickPick that searches GET /activities/search as
 * the user types, through src/tracker/model/debouncedSearch.ts (one request after a pause in typing,
 * never two on the wire, none while the command may not sign, a query typed again answered from this
 * picker's answers), lists the running and recent activities first and offers "Create “…”" for a
 * name it does not list (an item saying why not, for a name the command refuses or one longer than
 * the app takes, said as it is typed, with no search the app would refuse). Until an answer
 * comes, or when none can be had, it lists the activities earlier answers named, and says in itself
 * why and as of when (src/tracker/pickers/activityPicks.ts): a notification behind an open picker is one
 * the user does not see, and the picker tells it better.
 */
import * as vscode from 'vscode';
import type { ServiceClient } from '../../client';
import type { ActivityReference } from '../../protocol/types';
import { failureInBrief } from '../../tracker/advice/refusals';
import { classify } from '../../tracker/model/classify';
import { DebouncedSearch } from '../../tracker/model/debouncedSearch';
import {
  buildActivityPicks,
  learnedAtLabel,
  namedFirst,
  newNameLabel,
  pickerNotice,
  typedTooLong,
  type ActivityPick,
  type KnownActivities,
  type PickableActivity,
  type PickerSituation,
} from '../../tracker/pickers/activityPicks';

/** The pause in typing before a search goes out. */
const SEARCH_DELAY_MS = 250;
const RESULT_LIMIT = 20;

interface PickItem extends vscode.QuickPickItem {
  readonly pick?: ActivityPick;
  /** A typed name the command does not take as a new activity: Enter leaves the picker open. */
  readonly refused?: true;
}

export interface PickerOptions {
  readonly title: string;
  readonly placeholder: string;
  readonly recent: readonly PickableActivity[];
  /** What earlier answers named; the answers of this picker are added. */
  readonly known: KnownActivities;
  /** The activity the app runs, as its last poll said. */
  readonly running: () => ActivityReference | undefined;
  /** Whether a search may be signed now: no while the app rejects the token or locks us out. */
  readonly maySearch: () => boolean;
  /** Whether the app answered its last poll (false while offline). */
  readonly appAnswers: () => boolean;
  /** Whether the app's last poll found its license locked: it refuses every search then. */
  readonly licenseLocked: () => boolean;
  /** Log Time: a new name is created when the entry is sent, also one that waits in the queue. */
  readonly createsWhenSent: boolean;
  /**
   * A search failed; each failure is handed over (the picker says it in itself, the command may log it or say it
   * later).
   */
  readonly onError: (error: unknown) => void;
  /**
   * Why a typed name is not offered as a new activity (the picker lists the reason instead), or undefined to offer it.
   */
  readonly refuseNew?: (name: string) => string | undefined;
}

/**
 * Resolves to the chosen pick, or undefined when dismissed. Without a client (Log Time while the
 * app is offline and no way to it is left) it lists what is known and searches nothing.
 */
export function pickActivity(
  client: ServiceClient | undefined,
  options: PickerOptions,
): Promise<ActivityPick | undefined> {
  const quickPick = vscode.window.createQuickPick<PickItem>();
  quickPick.matchOnDescription = false;
  /** What the last search met: undefined once one was answered. */
  let failure: PickerSituation | undefined;
  let answeredHere = false;
  const situation = (): PickerSituation => {
    if (!options.maySearch()) return { kind: 'refusing' };
    if (options.licenseLocked()) return { kind: 'licenseLocked' };
    if (failure) return failure;
    return answeredHere || options.appAnswers() ? { kind: 'answering' } : { kind: 'notAnswering' };
  };
  const show = (query: string): void => {
    const shown = listFor(query, search.answered(query), situation(), options);
    quickPick.items = shown.items;
    quickPick.title = shown.title;
    quickPick.placeholder = shown.placeholder;
  };
  const search = new DebouncedSearch<readonly PickableActivity[]>({
    delayMs: SEARCH_DELAY_MS,
    search: async (query, signal) => {
      // Never asked without a client: `maySearch` says no.
      const answer = (await client?.searchActivities(query.trim(), { limit: RESULT_LIMIT, signal })) ?? [];
      // Known from now on, even when typing went on and this answer is not shown.
      options.known.remember(answer);
      answeredHere = true;
      failure = undefined;
      return answer;
    },
    maySearch: searchable(client, options),
    keyOf: (query) => query.trim().toLowerCase(),
    onAnswer: (query) => show(query),
    onError: (_query, error) => {
      failure = failedSearch(error);
      options.onError(error);
      show(quickPick.value);
    },
    onBusy: (busy) => (quickPick.busy = busy),
  });

  return new Promise((resolve) => {
    let chosen: ActivityPick | undefined;
    quickPick.onDidChangeValue((value) => {
      // What is known at once; the app's answer follows the pause in typing.
      show(value);
      search.typed(value);
    });
    quickPick.onDidAccept(() => {
      // The refused name's item says why; the user types another, or shortens what was typed.
      if (quickPick.selectedItems[0]?.refused === true) return;
      chosen = quickPick.selectedItems[0]?.pick;
      quickPick.hide();
    });
    quickPick.onDidHide(() => {
      search.dispose();
      quickPick.dispose();
      resolve(chosen);
    });
    show('');
    quickPick.show();
    search.searchNow('');
  });
}

/** Whether a search for a query may go out: never for a name no activity can have, which the app would only refuse. */
function searchable(client: ServiceClient | undefined, options: PickerOptions): (query: string) => boolean {
  return (query) =>
    client !== undefined && options.maySearch() && !options.licenseLocked() && typedTooLong(query) === undefined;
}

/**
 * The picker's list for `query`, its title and its placeholder: the app's `answer` (undefined: none yet, or none to be
 * had), else what is known.
 */
function listFor(
  query: string,
  answer: readonly PickableActivity[] | undefined,
  now: PickerSituation,
  options: PickerOptions,
): { readonly items: PickItem[]; readonly title: string; readonly placeholder: string } {
  const { known } = options;
  const learnedAt =
    known.learnedAtMs === undefined ? undefined : learnedAtLabel(known.learnedAtMs, Date.now(), vscode.env.language);
  const notice = pickerNotice(now, answer === undefined, learnedAt, options.createsWhenSent);
  const title = notice?.reason === undefined ? options.title : `${options.title} · ${notice.reason}`;
  const placeholder = notice?.placeholder ?? options.placeholder;
  const tooLong = typedTooLong(query);
  // Said as it is typed, in the one item; Enter on it keeps the picker open with what was typed.
  if (tooLong !== undefined)
    return { items: [{ label: `$(circle-slash) ${tooLong}`, refused: true, alwaysShow: true }], title, placeholder };
  const built = buildActivityPicks(query, answer ?? known.matching(query), options.recent, options.running());
  // Log Time's entry waits in the queue: a known name typed is where it lands, and said so.
  const queues =
    options.createsWhenSent && (now.kind === 'notAnswering' || now.kind === 'refusing' || now.kind === 'licenseLocked');
  const { picks, named } = queues ? namedFirst(built, query) : { picks: built, named: undefined };
  const separator: PickItem[] = notice ? [{ label: notice.separator, kind: vscode.QuickPickItemKind.Separator }] : [];
  return {
    items: [
      ...separator,
      ...picks.map((pick) =>
        toItem(pick, pick === named, options.refuseNew, (name) => newNameLabel(name, now, options.createsWhenSent)),
      ),
    ],
    title,
    placeholder,
  };
}

/** What a failed search means for the list: nothing answered, the license locked, or the failure in our words. */
function failedSearch(error: unknown): PickerSituation | undefined {
  const failure = classify(error);
  switch (failure.kind) {
    case 'offline':
    case 'mayHaveArrived':
      return { kind: 'notAnswering' };
    case 'tokenRejected':
    case 'lockedOut':
      // The command's gate says no more searches: `refusing`, from `maySearch`.
      return undefined;
    case 'licenseLocked':
      return { kind: 'licenseLocked' };
    default:
      return { kind: 'searchFailed', message: failureInBrief(error) };
  }
}

/**
 * `logTo`: the activity of the name typed into Log Time while its entry waits in the queue; `refuseNew`: why a typed
 * name is not taken; `newName`: the label of a name to be taken.
 */
function toItem(
  pick: ActivityPick,
  logTo: boolean,
  refuseNew: PickerOptions['refuseNew'],
  newName: (name: string) => string,
): PickItem {
  if (pick.kind === 'create') {
    const refusal = refuseNew?.(pick.name);
    if (refusal !== undefined)
      return {
        label: `$(circle-slash) ${vscode.l10n.t('Not an activity name: “{0}”', pick.name)}`,
        detail: refusal,
        refused: true,
        alwaysShow: true,
      };
    return { label: `$(add) ${newName(pick.name)}`, pick, alwaysShow: true };
  }
  const marks = pick.running ? vscode.l10n.t('running') : pick.recent ? vscode.l10n.t('recent') : undefined;
  return {
    label: logTo ? vscode.l10n.t('Log to “{0}”', pick.activity.activityName) : pick.activity.activityName,
    // The group tells two activities of the same name apart.
    description: [pick.activity.groupName, marks].filter(Boolean).join(' · '),
    pick,
    // The service already matched the name; VS Code's own filter must not hide its fuzzy hits.
    alwaysShow: true,
  };
}
