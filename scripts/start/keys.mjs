// The keys of `npm start`, as Vite's dev server has them: the happy path is what
// `npm start` shows by itself, and these show the states a user meets when something goes wrong
// (the app offline, its license locked, a break, a token the app rejects), each undone by the
// same key. Here is what the keys are, the one line printed under the URL, the help, and the one
// line a press prints: what changed and what VS Code shows. Pure, so test/start/check.mjs checks
// the words without a terminal; scripts/start/demoApp.mjs makes the changes, scripts/start.mjs
// reads the keys (only from a terminal: without one, as in CI, there are none).

/** Printed once under the URL, and only when stdin is a terminal. */
export const KEYS_HINT = 'Keys (no Enter needed): h help · o offline · l license · b break · t token · q quit';

/** Each key and what it does, in the order the help lists them. */
export const KEY_HELP = [
  ['o', 'take the demo app offline (it quits: its socket and integration file go away), and back'],
  ['l', "lock the app's license, and unlock it"],
  ['b', 'start a break in the app, and end it'],
  ['t', "replace the app's token so that VS Code's is rejected; again: turn the app's VS Code integration off and on"],
  ['h', 'show this help'],
  ['q', 'quit: stop VS Code and the demo app and remove the temporary folder, as Ctrl-C does'],
];

export function helpText() {
  return [
    'Keys of npm start (the status bar in VS Code shows each change):',
    ...KEY_HELP.map(([key, does]) => `  ${key}  ${does}`),
  ].join('\n');
}

/**
 * The keys in a chunk of raw terminal input, one event each: a letter (lower case), 'ctrl-c'
 * (raw mode turns Ctrl-C into a byte, not a signal), or `{ unknown }` for anything else; an
 * escape sequence (an arrow key) is one unknown key. Enter and other whitespace are let pass
 * without a word: a Vite user presses Enter after a key out of habit.
 */
export function keysOf(chunk) {
  const keys = [];
  for (let index = 0; index < chunk.length; index++) {
    const char = chunk[index];
    if (char === '\x03') keys.push('ctrl-c');
    else if (char === '\x1b') {
      keys.push({ unknown: 'that key' });
      // An arrow or function key: ESC, [ or O, parameters, then one final byte.
      if (chunk[index + 1] === '[' || chunk[index + 1] === 'O') {
        index += 2;
        while (index < chunk.length && !/[@-~]/.test(chunk[index])) index++;
      }
    } else if (/\s/.test(char)) continue;
    else if (KEY_HELP.some(([key]) => key === char.toLowerCase())) keys.push(char.toLowerCase());
    else keys.push({ unknown: /[\x20-\x7e]/.test(char) ? `"${char}"` : 'that key' });
  }
  return keys;
}

/** Said for a key that is not one of KEY_HELP's. */
export function unknownKeyLine(unknown) {
  return `${unknown} is not a key of npm start: press h for the keys.`;
}

/** Said for o, l, b and t while the demo app is offline: they change an app that is not there. */
export const OFFLINE_REFUSAL = 'changes nothing while the demo app is offline: press o to bring it back first.';

/**
 * The line a press of `key` prints once the demo app did it: `outcome` is what the demo app
 * says changed (scripts/start/demoApp.mjs): `{ online }` for o, `{ license }` for l,
 * `{ onBreak }` for b, `{ tokenAnnounced }` for t, or `{ offline: true }` when it refused.
 * The token itself is never part of it.
 */
export function pressedLine(key, outcome) {
  if (outcome.offline) return `${key}  ${OFFLINE_REFUSAL}`;
  switch (key) {
    case 'o':
      return outcome.online
        ? 'o  The demo app is back on the same socket: VS Code reconnects within seconds, shows what runs and sends what it queued.'
        : 'o  The demo app is offline (it quit: socket and integration file gone): VS Code shows "Time Tracker offline" at once; Log Time still works and queues. o brings it back.';
    case 'l':
      return outcome.license === 'locked'
        ? 'l  The app\'s license is locked: VS Code shows "Time Tracker: license locked" at its next poll (within 10 s). l unlocks it.'
        : "l  The app's license is valid again: VS Code shows what runs at its next poll (within 10 s).";
    case 'b':
      return outcome.onBreak
        ? 'b  A break started in the app: VS Code shows "On break" at its next poll (within 10 s). b ends it (so does Start Tracking in VS Code).'
        : 'b  The break is over: VS Code shows what runs at its next poll (within 10 s).';
    case 't':
      return outcome.tokenAnnounced
        ? "t  The app's VS Code integration was turned off and on: its file names the new token, and VS Code reconnects with it at once."
        : 't  The app has a new token; its integration file still names the old one: VS Code shows "Time Tracker: token rejected" at its next poll (within 10 s) and stops polling, so retries cannot lock it out. t turns the integration off and on, as its tooltip advises.';
    default:
      throw new Error(`no line for the key ${key}`);
  }
}

/** Printed for q, before everything stops. */
export const QUIT_LINE = 'q  Stopping VS Code and the demo app…';
