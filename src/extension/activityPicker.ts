/**
 * The activity picker of Start and Log Time: a QuickPick that searches GET /activities/search as
 * the user types, through src/tracker/model/debouncedSearch.ts (one request after a pause in typing,
 * never two on the wire, none while the command may not sign), lists recent activities first and
 * offers "Create “…”" for a new name. Until an answer comes, or when none may be asked for, it
 * lists the activities earlier answers named.
 */
import * as vscode from 'vscode';
import type { ServiceClient } from '../client';
import { DebouncedSearch } from '../tracker/model/debouncedSearch';
import { buildActivityPicks, type ActivityPick, type KnownActivities, type PickableActivity } from '../tracker/view/activityPicks';

/** The pause in typing before a search goes out. */
const SEARCH_DELAY_MS = 250;
const RESULT_LIMIT = 20;

interface PickItem extends vscode.QuickPickItem {
  readonly pick: ActivityPick;
}

export interface PickerOptions {
  readonly title: string;
  readonly placeholder: string;
  readonly recent: readonly PickableActivity[];
  /** What earlier answers named; the answers of this picker are added. */
  readonly known: KnownActivities;
  /** Whether a search may be signed now: no while the app rejects the token or locks us out. */
  readonly maySearch: () => boolean;
  /** A search failed; each failure is handed over, the command decides what to say (once). */
  readonly onError: (error: unknown) => void;
}

/**
 * Resolves to the chosen pick, or undefined when dismissed. Without a client (Log Time while the
 * app is offline and no way to it is left) it lists what is known and searches nothing.
 */
export function pickActivity(client: ServiceClient | undefined, options: PickerOptions): Promise<ActivityPick | undefined> {
  const quickPick = vscode.window.createQuickPick<PickItem>();
  quickPick.title = options.title;
  quickPick.matchOnDescription = false;
  const maySearch = (): boolean => client !== undefined && options.maySearch();
  const show = (query: string, answer?: readonly PickableActivity[]): void => {
    quickPick.items = buildActivityPicks(query, answer ?? options.known.matching(query), options.recent).map(toItem);
    if (maySearch()) quickPick.placeholder = options.placeholder;
    else if (client === undefined) quickPick.placeholder = vscode.l10n.t('The app is not answering: pick a known activity or type a new name');
    else quickPick.placeholder = vscode.l10n.t('Not searching while the app refuses requests: pick a known activity or type a new name');
  };
  const search = new DebouncedSearch<readonly PickableActivity[]>({
    delayMs: SEARCH_DELAY_MS,
    search: async (query, signal) => {
      if (client === undefined) return [];
      const answer = await client.searchActivities(query.trim(), { limit: RESULT_LIMIT, signal });
      // Known from now on, even when typing went on and this answer is not shown.
      options.known.remember(answer);
      return answer;
    },
    maySearch,
    onAnswer: (query, answer) => show(query, answer),
    onError: (_query, error) => {
      options.onError(error);
      // The placeholder says when searching stopped for good.
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

function toItem(pick: ActivityPick): PickItem {
  if (pick.kind === 'create') {
    return { label: `$(add) ${vscode.l10n.t('Create “{0}”', pick.name)}`, pick, alwaysShow: true };
  }
  return {
    label: pick.activity.activityName,
    // The group tells two activities of the same name apart.
    description: [pick.activity.groupName, pick.recent ? vscode.l10n.t('recent') : undefined].filter(Boolean).join(' · '),
    pick,
    // The service already matched the name; VS Code's own filter must not hide its fuzzy hits.
    alwaysShow: true,
  };
}
