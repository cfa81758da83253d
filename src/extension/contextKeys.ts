/**
 * The context keys the session sets, for `when` and `enablement` clauses in package.json. The
 * walkthrough's own keys are in src/tracker/view/onboarding.ts (ONBOARDING_CONTEXT_KEYS).
 */
export const CONTEXT_KEYS = {
  /** There is a way to the app with a token: the integration's, or the HTTP API's. Start, Stop and Log Time need it. */
  hasToken: 'timeTracker.hasToken',
  /** A token is in secret storage: Clear Token has something to clear. */
  tokenStored: 'timeTracker.tokenStored',
  tracking: 'timeTracker.tracking',
} as const;
