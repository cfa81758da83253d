import * as vscode from 'vscode';
import type { ServiceClient } from '../client';
import { buildActivityPicks, type ActivityPick, type PickableActivity } from '../tracker/view/activityPicks';

const SEARCH_DELAY_MS = 200;

interface PickItem extends vscode.QuickPickItem {
  readonly pick: ActivityPick;
}

export interface PickerOptions {
  readonly title: string;
  readonly placeholder: string;
  readonly recent: readonly PickableActivity[];
  readonly onError: (error: unknown) => void;
}

/**
 * A QuickPick that searches GET /activities/search as the user types (debounced, the previous
 * search aborted), lists recent activities first and offers "Create “…”" for a new name.
 * Resolves to the chosen pick, or undefined when dismissed.
 */
export function pickActivity(client: ServiceClient, options: PickerOptions): Promise<ActivityPick | undefined> {
  const quickPick = vscode.window.createQuickPick<PickItem>();
  quickPick.title = options.title;
  quickPick.placeholder = options.placeholder;
  quickPick.matchOnDescription = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let search: AbortController | undefined;

  const runSearch = async (query: string): Promise<void> => {
    search?.abort();
    const controller = new AbortController();
    search = controller;
    quickPick.busy = true;
    try {
      const results = await client.searchActivities(query.trim(), { limit: 20, signal: controller.signal });
      if (controller.signal.aborted) return;
      quickPick.items = buildActivityPicks(query, results, options.recent).map(toItem);
    } catch (error) {
      if (!controller.signal.aborted) {
        quickPick.items = buildActivityPicks(query, [], options.recent).map(toItem);
        options.onError(error);
      }
    } finally {
      if (search === controller) quickPick.busy = false;
    }
  };

  return new Promise((resolve) => {
    let chosen: ActivityPick | undefined;
    quickPick.onDidChangeValue((value) => {
      // Show recent matches and "Create" at once; the service's answer follows the pause in typing.
      quickPick.items = buildActivityPicks(value, [], options.recent).map(toItem);
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void runSearch(value), SEARCH_DELAY_MS);
    });
    quickPick.onDidAccept(() => {
      chosen = quickPick.selectedItems[0]?.pick;
      quickPick.hide();
    });
    quickPick.onDidHide(() => {
      if (timer) clearTimeout(timer);
      search?.abort();
      quickPick.dispose();
      resolve(chosen);
    });
    quickPick.items = buildActivityPicks('', [], options.recent).map(toItem);
    quickPick.show();
    void runSearch('');
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
