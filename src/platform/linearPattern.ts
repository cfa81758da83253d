/**
 * A regular expression from a setting, matched in time linear in the text: `timeTracker.ticketPattern`
 * is code a repository may write, and JavaScript's own engine backtracks, so `^(a+)+b`,
 * `a*a*a*a*a*a*b` or `(a|a)(a|a)…b` against a few dozen characters keeps the extension host busy for
 * seconds or forever. Here the pattern is parsed into a small program and run as a Pike VM: every
 * place in the program is held at most once per character, so a match takes text length × program
 * size steps, whatever the pattern. It finds what `new RegExp(source).exec(text)?.[0]` finds (the
 * leftmost match, alternatives and greedy or lazy quantifiers in JavaScript's order).
 *
 * What needs backtracking by its nature (backreferences, lookaround) and what is rare in a ticket
 * key and easy to get subtly wrong (flags inside the pattern, `\p{…}`, `\c`, octal escapes) is refused
 * with a PatternError, whose `code` the caller turns into its sentence; so are a source over
 * `maxLength` and a program over `maxProgramSize` (a `{n,m}` is written out n to m times).
 */

import { errorMessage } from './errors';
import { isWord, parsePattern, PatternError, type Assertion, type CharTest, type Node } from './patternSyntax';

export { PatternError, type PatternProblem } from './patternSyntax';

export interface LinearPattern {
  /** What the pattern matches first in `text` (leftmost; JavaScript's choice among matches there), if anything. */
  firstMatch(text: string): string | undefined;
}

export interface PatternLimits {
  readonly maxLength: number;
  readonly maxProgramSize: number;
}

/** Compiles `source` (a JavaScript regular expression without flags) or throws a PatternError. */
export function compileLinearPattern(source: string, limits: PatternLimits): LinearPattern {
  if (source.length > limits.maxLength) throw new PatternError('TOO_LONG', String(source.length));
  try {
    // The engine's own check first, so that a typo gets the engine's message; compiling does not run it.
    new RegExp(source);
  } catch (error) {
    throw new PatternError('SYNTAX', errorMessage(error));
  }
  const tree = parsePattern(source);
  if (sizeOf(tree) + 1 > limits.maxProgramSize) throw new PatternError('TOO_COMPLEX', source);
  const program: Instruction[] = [];
  emit(tree, program);
  program.push({ op: 'match' });
  return { firstMatch: (text) => run(program, text) };
}

type Instruction =
  | { readonly op: 'char'; readonly test: CharTest }
  | { readonly op: 'assert'; readonly assertion: Assertion }
  /** Go on at `first` and, with lower priority, at `second`. */
  | { op: 'split'; first: number; second: number }
  | { op: 'jump'; to: number }
  | { readonly op: 'match' };

/** The instructions `emit` writes for `node`; Infinity once it passes what any limit allows. */
function sizeOf(node: Node): number {
  switch (node.kind) {
    case 'char':
    case 'assert':
      return 1;
    case 'sequence':
      return node.items.reduce((sum, item) => sum + sizeOf(item), 0);
    case 'either':
      return node.options.reduce((sum, option) => sum + sizeOf(option) + 2, 0);
    case 'repeat': {
      const copies = node.max === Infinity ? node.min + 1 : node.max;
      const size = copies * (sizeOf(node.item) + 2);
      return Number.isFinite(size) && size < 1e9 ? size : Infinity;
    }
  }
}

function emit(node: Node, program: Instruction[]): void {
  switch (node.kind) {
    case 'char':
      program.push({ op: 'char', test: node.test });
      return;
    case 'assert':
      program.push({ op: 'assert', assertion: node.assertion });
      return;
    case 'sequence':
      for (const item of node.items) emit(item, program);
      return;
    case 'either':
      return emitEither(node.options, program);
    case 'repeat':
      return emitRepeat(node, program);
  }
}

function emitEither(options: readonly Node[], program: Instruction[]): void {
  const jumps: { op: 'jump'; to: number }[] = [];
  options.forEach((option, index) => {
    const last = index === options.length - 1;
    const split = last ? undefined : { op: 'split' as const, first: program.length + 1, second: 0 };
    if (split !== undefined) program.push(split);
    emit(option, program);
    if (split === undefined) return;
    const jump = { op: 'jump' as const, to: 0 };
    jumps.push(jump);
    program.push(jump);
    split.second = program.length;
  });
  for (const jump of jumps) jump.to = program.length;
}

function emitRepeat(node: Extract<Node, { kind: 'repeat' }>, program: Instruction[]): void {
  for (let i = 0; i < node.min; i++) emit(node.item, program);
  const choose = (split: { op: 'split'; first: number; second: number }, body: number, out: number): void => {
    split.first = node.greedy ? body : out;
    split.second = node.greedy ? out : body;
  };
  if (node.max === Infinity) {
    const loop = { op: 'split' as const, first: 0, second: 0 };
    const start = program.length;
    program.push(loop);
    emit(node.item, program);
    program.push({ op: 'jump', to: start });
    choose(loop, start + 1, program.length);
    return;
  }
  const optional: { split: { op: 'split'; first: number; second: number }; body: number }[] = [];
  for (let i = node.min; i < node.max; i++) {
    const split = { op: 'split' as const, first: 0, second: 0 };
    program.push(split);
    optional.push({ split, body: program.length });
    emit(node.item, program);
  }
  for (const { split, body } of optional) choose(split, body, program.length);
}

/** The threads at one position: program places in priority order, each with where its match began. */
interface Threads {
  readonly places: Int32Array;
  readonly starts: Int32Array;
  length: number;
}

function run(program: readonly Instruction[], text: string): string | undefined {
  const threads = (): Threads => ({
    places: new Int32Array(program.length),
    starts: new Int32Array(program.length),
    length: 0,
  });
  // seen[place] === position + 1: the place is already held at that position (by a thread of higher priority).
  const seen = new Int32Array(program.length);
  const stack: number[] = [];
  const add = (list: Threads, place: number, start: number, position: number): void => {
    stack.push(place);
    while (stack.length > 0) {
      const at = stack.pop() as number;
      if (seen[at] === position + 1) continue;
      seen[at] = position + 1;
      const instruction = program[at] as Instruction;
      if (instruction.op === 'jump') stack.push(instruction.to);
      else if (instruction.op === 'split') stack.push(instruction.second, instruction.first);
      else if (instruction.op === 'assert') {
        if (holds(instruction.assertion, text, position)) stack.push(at + 1);
      } else {
        list.places[list.length] = at;
        list.starts[list.length++] = start;
      }
    }
  };
  let current = threads();
  let next = threads();
  let found: [number, number] | undefined;
  for (let position = 0; position <= text.length; position++) {
    // A match starting here has the lowest priority of all: every earlier start is leftmost.
    if (found === undefined) add(current, 0, position, position);
    const code = position < text.length ? text.charCodeAt(position) : -1;
    next.length = 0;
    for (let i = 0; i < current.length; i++) {
      const instruction = program[current.places[i] as number] as Instruction;
      if (instruction.op === 'match') {
        // Every thread after this one has a lower priority: dropped.
        found = [current.starts[i] as number, position];
        break;
      }
      if (instruction.op === 'char' && code !== -1 && instruction.test(code))
        add(next, (current.places[i] as number) + 1, current.starts[i] as number, position + 1);
    }
    if (next.length === 0 && found !== undefined) break;
    [current, next] = [next, current];
  }
  return found === undefined ? undefined : text.slice(found[0], found[1]);
}

function holds(assertion: Assertion, text: string, position: number): boolean {
  switch (assertion) {
    case 'start':
      return position === 0;
    case 'end':
      return position === text.length;
    case 'wordBoundary':
    case 'notWordBoundary': {
      const before = position > 0 && isWord(text.charCodeAt(position - 1));
      const after = position < text.length && isWord(text.charCodeAt(position));
      return (before !== after) === (assertion === 'wordBoundary');
    }
  }
}
