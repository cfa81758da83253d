/**
 * No import circle in src/: a file that reaches itself through its imports has no order in which its
 * parts can be read (or loaded: a value used before its module finished is `undefined`), and two
 * files that need each other are one part in two names. Type-only imports count too: they tie the
 * files as tightly for a reader, and the next edit turns one into a value import. Every relative
 * import and re-export of every file is read with TypeScript's own pre-parser (no type check, so the
 * whole tree takes well under a second), and the strongly connected components of the graph are the
 * circles; each is named as a path.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const repoRoot = join(__dirname, '..', '..', '..', '..');

/** Every .ts file under `folder`, as absolute paths. */
function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names (`./x` → x.ts or x/index.ts); undefined for a package. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

/** Each file's imports among the files given. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
    const targets = importedFiles.map((imported) => resolveImport(file, imported.fileName));
    graph.set(file, [...new Set(targets.filter((target): target is string => target !== undefined))]);
  }
  return graph;
}

/**
 * The circles of a graph: its strongly connected components of more than one file (Tarjan), or one that imports itself.
 */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(target)!));
      } else if (onStack.has(target)) lowLink.set(file, Math.min(lowLink.get(file)!, index.get(target)!));
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

/** One circle as a path a reader can follow: from its first file along imports back to it. */
function circlePath(graph: ReadonlyMap<string, readonly string[]>, circle: readonly string[]): string {
  const members = new Set(circle);
  const start = circle[0]!;
  // Breadth-first from the start back to it, inside the circle: the shortest loop through it.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of graph.get(file) ?? []) {
      if (!members.has(target) || previous.has(target)) continue;
      previous.set(target, file);
      if (target === start) queue.length = 0;
      else queue.push(target);
    }
  }
  const loop: string[] = [];
  for (let file = previous.get(start); file !== undefined && file !== start; file = previous.get(file))
    loop.unshift(file);
  return [start, ...loop, start].map((file) => relative(repoRoot, file)).join(' → ');
}

describe('lint/importCycles: no import circle in src/', () => {
  it('finds none', () => {
    const graph = importGraph(sources(join(repoRoot, 'src')));
    assert.ok(graph.size > 100, `read ${graph.size} files`);
    const circles = importCircles(graph).map((circle) => circlePath(graph, circle));
    assert.deepEqual(circles, []);
  });

  it('finds a circle of two files, of three and a file importing itself, and leaves a diamond alone', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a', 'c']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['f']],
      ['g', ['h', 'i']],
      ['h', ['j']],
      ['i', ['j']],
      ['j', []],
    ]);
    assert.deepEqual(importCircles(graph), [['c', 'd', 'e'], ['a', 'b'], ['f']]);
  });
});
