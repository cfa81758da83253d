/**
 * Every name VS Code knows the extension's parts by, in one place: command ids, context keys, the
 * walkthrough's and the status bar item's ids, and the keys of what it stores (globalState,
 * secret storage). package.json names the same ids (a unit test compares them); renaming one here
 * and not there breaks a keybinding, a `when` clause or what a user stored. Plain data that
 * imports nothing, so the tracker's views (tooltip links, the menu, the walkthrough) and the
 * extension read the same names.
 */

/** The extension's own id, package.json's `publisher.name`: what `remote.extensionKind` names. */
export const EXTENSION_ID = 'clessira-tools.clessira-time-tracker';

export const COMMANDS = {
  start: 'timeTracker.start',
  stop: 'timeTracker.stop',
  log: 'timeTracker.log',
  setToken: 'timeTracker.setToken',
  clearToken: 'timeTracker.clearToken',
  checkConnection: 'timeTracker.checkConnection',
  showLog: 'timeTracker.showLog',
  showMenu: 'timeTracker.showMenu',
  showQueue: 'timeTracker.showQueue',
  /** The "Time by Branch" view: a summary to the clipboard, a period as CSV, and forgetting it all. */
  copyBranchSummary: 'timeTracker.copyBranchSummary',
  copyBranchSummaryMarkdown: 'timeTracker.copyBranchSummaryMarkdown',
  copyWeekByTicket: 'timeTracker.copyWeekByTicket',
  copyWeekByTicketMarkdown: 'timeTracker.copyWeekByTicketMarkdown',
  exportBranchTimeCsv: 'timeTracker.exportBranchTimeCsv',
  clearBranchHistory: 'timeTracker.clearBranchHistory',
  /** Links: a folder or branch tracks its activity; Undo takes a linked start back. */
  linkBranch: 'timeTracker.linkBranch',
  linkFolder: 'timeTracker.linkFolder',
  unlink: 'timeTracker.unlink',
  undoLink: 'timeTracker.undoLink',
  /** The question about a repository's links, asked again: use them or not. */
  useRepositoryLinks: 'timeTracker.useRepositoryLinks',
  /** timeTracker.statusBar.private on or off: no name and no time in the status bar, for screen sharing. */
  togglePrivateStatusBar: 'timeTracker.togglePrivateStatusBar',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

/** The tools this extension gives the editor's agent, by name (package.json `contributes.languageModelTools`). */
export const TOOLS = {
  /** What runs now and how the app is reached, in the status bar's words. */
  status: 'timeTracker_status',
  /** A period's time by repository, branch (its ticket) and activity, as Copy Summary gives it. */
  timeByBranch: 'timeTracker_timeByBranch',
  /** The app's activities whose name holds a query, with their ids: what the pickers search. */
  searchActivities: 'timeTracker_searchActivities',
  /** Start, Stop and Log Time with the agent's input as their arguments, each after the user's yes. */
  start: 'timeTracker_start',
  stop: 'timeTracker_stop',
  log: 'timeTracker_logTime',
} as const;

export type ToolName = (typeof TOOLS)[keyof typeof TOOLS];

/** Context keys, for `when` and `enablement` clauses and the walkthrough's completion events. */
export const CONTEXT_KEYS = {
  /**
   * There is a way to the app with a token: the integration's, or the HTTP API's. The walkthrough's
   * step completes on it; no command is hidden without it (each says itself why it cannot act).
   */
  hasToken: 'timeTracker.hasToken',
  /** A token is in secret storage (Clear Token says itself when there is none). */
  tokenStored: 'timeTracker.tokenStored',
  tracking: 'timeTracker.tracking',
  /** Onboarding: the app answered through one of its switches. */
  appReachable: 'timeTracker.appReachable',
  /** Onboarding: the app accepted the token. */
  connected: 'timeTracker.connected',
  /** The "Time by Branch" view is empty because the status bar is private: its welcome text says so. */
  branchTimeHidden: 'timeTracker.branchTimeHidden',
  /**
   * The ledger is off in this window, by the user's settings or the workspace's (which may turn it
   * off, never on): what `config.timeTracker.branchTime.enabled` cannot tell a `when` clause.
   */
  branchTimeOff: 'timeTracker.branchTimeOff',
} as const;

/** Views (contributes.views), for `view == …` clauses. */
export const VIEWS = {
  /** "Time by Branch" in the Explorer. */
  branchTime: 'timeTracker.branchTime',
} as const;

/** The "Get started" walkthrough (contributes.walkthroughs). */
export const WALKTHROUGH_ID = 'timeTracker.gettingStarted';

/** The one status bar item. */
export const STATUS_BAR_ITEM_ID = 'timeTracker.status';

/** Keys of what the extension keeps between sessions. */
export const STORAGE_KEYS = {
  /** globalState: the activities used last, for the picker. */
  recentActivities: 'timeTracker.recentActivities',
  /**
   * workspaceState: the activities the app's searches named, and when (src/tracker/pickers/activityPicks.ts
   * KnownRecord).
   */
  knownActivities: 'timeTracker.knownActivities',
  /**
   * globalState (this machine only, shared by its windows): the header prefix `auto` learned, per
   * app and token (src/tracker/model/learnedPrefix.ts; keyed by a hash, never the token).
   */
  learnedHeaderPrefixes: 'timeTracker.learnedHeaderPrefixes',
  /**
   * workspaceState: this window's id in the branch-time ledger, kept across activations so a
   * restarted extension host is the same window (src/tracker/branchTime/windowIdentity.ts).
   */
  branchTimeWindow: 'timeTracker.branchTimeWindow',
  /** workspaceState: what the user said about this workspace's links (src/tracker/links/linkConsent.ts). */
  linkConsent: 'timeTracker.linkConsent',
  /** globalState (synced): the user chose "Don't show again" on the first-run notice. */
  welcomeNoticeTurnedOff: 'timeTracker.welcomeNotice.turnedOff',
  /** globalState (this machine, every window): what was said beside the app's own extension (peers.ts Said). */
  coexistence: 'timeTracker.coexistence',
  /**
   * globalState (this machine, every window; never synced): the capability file path macOS's privacy
   * consent refused, so no start reads it again until Check Connection (src/tracker/model/privacyRefusal.ts).
   */
  macPrivacyRefusal: 'timeTracker.macPrivacyRefusal',
  /** Secret storage: the HTTP API's token. */
  token: 'timeTracker.token',
} as const;
