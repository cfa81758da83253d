/**
 * The "Time by Branch" view in the Explorer: Today, This Week and Last Week, each →
 * repository → branch → activity, to the minute (the minutes Copy Summary gives: each its own time
 * rounded, a total its rows miss marked, src/tracker/branchTime/summary.ts), the branch this window is on
 * marked; the hover gives the exact total and when it was first and last seen. It renders what
 * src/tracker/branchTime summarises and nothing else. Empty (and so showing its `viewsWelcome`) while
 * the ledger has no time or is turned off, and while the status bar is private
 * (src/tracker/branchTime/ledgerView.ts), its context key choosing that welcome text. While visible it
 * reads the shared file again every minute, so other windows' time shows too.
 */
import * as vscode from 'vscode';
import { CONTEXT_KEYS, VIEWS } from '../../tracker/ids';
import { ledgerViewContent, type LedgerViewContent } from '../../tracker/branchTime/ledgerView';
import { samePlace } from '../../tracker/branchTime/attribution';
import {
  formatExactDuration,
  formatLedgerDuration,
  periodLabel,
  type PeriodKind,
} from '../../tracker/branchTime/summary';
import type { BranchTime } from './branchTime';
import { every } from '../../platform/timers';

/** What a node of the view stands for; the node under the pointer is what Copy Summary's context menu hands over. */
export type BranchTimeNode =
  | { readonly type: 'period'; readonly kind: PeriodKind }
  | { readonly type: 'repository'; readonly kind: PeriodKind; readonly root: string }
  | { readonly type: 'branch'; readonly kind: PeriodKind; readonly root: string; readonly branch: string }
  | {
      readonly type: 'activity';
      readonly kind: PeriodKind;
      readonly root: string;
      readonly branch: string;
      readonly activityID: string;
    };

/** The context value of each kind of row, for the view's menus (package.json `viewItem =~ …`). */
export const ITEM_CONTEXT = {
  period: 'branchTimePeriod',
  repository: 'branchTimeRepository',
  branch: 'branchTimeBranch',
  activity: 'branchTimeActivity',
} as const;
const RELOAD_WHILE_VISIBLE_MS = 60_000;
/** A row whose node left the summary between the view's two questions. */
const NO_TIME = { ms: 0, minutes: 0 };

export class BranchTimeView implements vscode.TreeDataProvider<BranchTimeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<BranchTimeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<BranchTimeNode>;
  private readonly subscriptions: vscode.Disposable[];
  private reload: NodeJS.Timeout | undefined;

  constructor(
    private readonly branchTime: BranchTime,
    /** Whether the status bar is private now (the settings as last read). */
    private readonly isPrivate: () => boolean,
  ) {
    this.view = vscode.window.createTreeView(VIEWS.branchTime, { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions = [
      this.view,
      branchTime.onDidChange(() => this.changed.fire(undefined)),
      this.view.onDidChangeVisibility(({ visible }) => this.follow(visible)),
    ];
    this.follow(this.view.visible);
    this.showHidden();
  }

  /** The private status bar or the ledger was switched: the view empties, or fills again, at once. */
  settingsChanged(): void {
    this.showHidden();
    this.changed.fire(undefined);
  }

  /** The top-level items as the view shows them now (the tests read them through the API). */
  shownItems(): readonly { readonly label: string; readonly description: string | undefined }[] {
    return this.getChildren().map((node) => {
      const item = this.getTreeItem(node);
      const { label } = item;
      return {
        label: typeof label === 'string' ? label : (label?.label ?? ''),
        description: typeof item.description === 'string' ? item.description : undefined,
      };
    });
  }

  /** The period of the selected row, if a row is selected. */
  selectedPeriod(): PeriodKind | undefined {
    return this.view.selection[0]?.kind;
  }

  getChildren(node?: BranchTimeNode): BranchTimeNode[] {
    const content = this.content();
    if (content.kind !== 'periods') return [];
    if (node === undefined) return content.periods.map((kind) => ({ type: 'period', kind }));
    const summary = this.branchTime.summary(node.kind);
    switch (node.type) {
      case 'period':
        return summary.repositories.map((repository) => ({
          type: 'repository',
          kind: node.kind,
          root: repository.root,
        }));
      case 'repository':
        return (summary.repositories.find((repository) => repository.root === node.root)?.branches ?? []).map(
          (branch) => ({
            type: 'branch',
            kind: node.kind,
            root: node.root,
            branch: branch.branch,
          }),
        );
      case 'branch':
        return (this.findBranch(node)?.activities ?? []).map((activity) => ({
          ...node,
          type: 'activity',
          activityID: activity.activityID,
        }));
      case 'activity':
        return [];
    }
  }

  getTreeItem(node: BranchTimeNode): vscode.TreeItem {
    const summary = this.branchTime.summary(node.kind);
    switch (node.type) {
      case 'period': {
        const item = new vscode.TreeItem(
          periodLabel(node.kind),
          node.kind === 'today' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.id = node.kind;
        item.description =
          summary.repositories.length === 0 ? vscode.l10n.t('nothing yet') : formatLedgerDuration(summary);
        item.contextValue = ITEM_CONTEXT.period;
        item.iconPath = new vscode.ThemeIcon('calendar');
        return item;
      }
      case 'repository': {
        const repository = summary.repositories.find((candidate) => candidate.root === node.root);
        const item = new vscode.TreeItem(repository?.repository ?? node.root, vscode.TreeItemCollapsibleState.Expanded);
        item.id = JSON.stringify(node);
        item.description = formatLedgerDuration(repository ?? NO_TIME);
        item.iconPath = new vscode.ThemeIcon('repo');
        item.contextValue = ITEM_CONTEXT.repository;
        item.tooltip = repository && hover(repository.repository, repository);
        return item;
      }
      case 'branch':
        return this.branchItem(node);
      case 'activity': {
        const activity = this.findBranch(node)?.activities.find(
          (candidate) => candidate.activityID === node.activityID,
        );
        const item = new vscode.TreeItem(activity?.activityName ?? '', vscode.TreeItemCollapsibleState.None);
        item.id = JSON.stringify(node);
        item.description = formatLedgerDuration(activity ?? NO_TIME);
        item.tooltip = activity && hover(activity.activityName, activity);
        item.contextValue = ITEM_CONTEXT.activity;
        return item;
      }
    }
  }

  private branchItem(node: Extract<BranchTimeNode, { type: 'branch' }>): vscode.TreeItem {
    const branch = this.findBranch(node);
    const place = this.branchTime.ledger.place;
    const current = branch !== undefined && samePlace(place, branch);
    const item = new vscode.TreeItem(node.branch, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = JSON.stringify(node);
    const duration = formatLedgerDuration(branch ?? NO_TIME);
    item.description = current ? vscode.l10n.t('{0} · this window', duration) : duration;
    item.iconPath = new vscode.ThemeIcon(current ? 'debug-breakpoint-log' : 'git-branch');
    item.tooltip = branch && hover(node.branch, branch);
    item.contextValue = ITEM_CONTEXT.branch;
    return item;
  }

  private content(): LedgerViewContent {
    return ledgerViewContent({
      enabled: this.branchTime.enabled,
      isPrivate: this.isPrivate(),
      hasTime: this.branchTime.ledger.current.rows.length > 0,
    });
  }

  /** Chooses the welcome text that says the view is hidden while private (package.json viewsWelcome). */
  private showHidden(): void {
    void vscode.commands.executeCommand(
      'setContext',
      CONTEXT_KEYS.branchTimeHidden,
      this.content().kind === 'hiddenWhilePrivate',
    );
  }

  private findBranch(node: { readonly kind: PeriodKind; readonly root: string; readonly branch: string }) {
    return this.branchTime
      .summary(node.kind)
      .repositories.find((repository) => repository.root === node.root)
      ?.branches.find((branch) => branch.branch === node.branch);
  }

  private follow(visible: boolean): void {
    if (this.reload) clearInterval(this.reload);
    this.reload = undefined;
    if (!visible) return;
    void this.branchTime.ledger.refresh();
    this.reload = every(() => void this.branchTime.ledger.refresh(), RELOAD_WHILE_VISIBLE_MS);
  }

  dispose(): void {
    this.follow(false);
    this.changed.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

/** The exact total with seconds, and when it was first and last seen. */
function hover(
  name: string,
  totals: { readonly ms: number; readonly firstMs: number; readonly lastMs: number },
): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString();
  markdown.appendText(name);
  markdown.appendMarkdown('\n\n');
  markdown.appendText(
    vscode.l10n.t('Total: {total} ({seconds} s). First seen {first}, last seen {last}.', {
      total: formatExactDuration(totals.ms),
      seconds: Math.floor(totals.ms / 1000),
      first: new Date(totals.firstMs).toLocaleString(),
      last: new Date(totals.lastMs).toLocaleString(),
    }),
  );
  return markdown;
}
