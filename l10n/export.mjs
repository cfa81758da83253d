// Writes l10n/bundle.l10n.json, the English runtime bundle: every message of an `l10n.t('…')`
// (src/tracker, @vscode/l10n) or `vscode.l10n.t('…')` (src/extension) call in src/, in order of
// appearance. `npm run l10n` after changing a message; `--check` only says whether the file is
// current (the unit tests run it). Offline and without dependencies; `npx @vscode/l10n-dev export
// --outDir l10n src` extracts the same messages (in another order). A message must be a plain
// string literal (no template literal, no variable): anything else is reported, because no tool
// could extract it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'l10n', 'bundle.l10n.json');
const check = process.argv.includes('--check');

/** `l10n.t(` followed by a quoted literal (group 1 or 2), or by anything else (group 3). */
const CALL = /\bl10n\.t\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|(\S))/g;
const ESCAPES = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0' };

function unescape(literal) {
  return literal.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, code) => {
    if (code.startsWith('u{')) return String.fromCodePoint(parseInt(code.slice(2, -1), 16));
    if (/^[ux][0-9a-fA-F]/.test(code)) return String.fromCharCode(parseInt(code.slice(1), 16));
    return ESCAPES[code] ?? code;
  });
}

function sources(folder) {
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return sources(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
    });
}

const messages = new Map();
const problems = [];
for (const file of sources(join(root, 'src'))) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(CALL)) {
    const line = text.slice(0, match.index).split('\n').length;
    const where = `${relative(root, file)}:${line}`;
    if (match[3] !== undefined) {
      problems.push(`${where}: the message of l10n.t must be a string literal`);
      continue;
    }
    const message = unescape(match[1] ?? match[2]);
    if (!messages.has(message)) messages.set(message, where);
  }
}
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}

const bundle = `${JSON.stringify(Object.fromEntries([...messages.keys()].map((message) => [message, message])), null, 2)}\n`;
let current = '';
try {
  current = readFileSync(target, 'utf8');
} catch {
  // Not written yet.
}
if (check) {
  if (current !== bundle) {
    console.error(`${relative(root, target)} is out of date with the messages in src/: run npm run l10n.`);
    process.exit(1);
  }
  console.log(`${relative(root, target)} is current: ${messages.size} messages.`);
} else {
  if (current !== bundle) writeFileSync(target, bundle);
  console.log(`${relative(root, target)}: ${messages.size} messages.`);
}
