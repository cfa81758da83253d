/**
 * The syntax of the patterns src/platform/linearPattern.ts matches: a JavaScript regular expression
 * without flags, read as JavaScript reads one without the `u` flag, into a tree; what the matcher does
 * not take is a PatternError with a `code` (the caller's sentence says why).
 */

export type PatternProblem =
  /** Not a regular expression JavaScript accepts: `detail` is its engine's message. */
  | 'SYNTAX'
  /** Longer than the caller's limit. */
  | 'TOO_LONG'
  /** Its repetitions (`{n,m}`, nested) write out a program over the caller's limit. */
  | 'TOO_COMPLEX'
  /** `\1`, `\k<name>`: `detail` is the piece. */
  | 'BACKREFERENCE'
  /** `(?=`, `(?!`, `(?<=`, `(?<!`: `detail` is the piece. */
  | 'LOOKAROUND'
  /**
   * A repetition of a part that may match nothing (`(a*)*`, `(x?)+`, `(\b)*`): JavaScript gives up
   * such an iteration and backtracks into the part, which a linear matcher cannot do the same way;
   * `detail` is the piece.
   */
  | 'EMPTY_REPEAT'
  /** Anything else this matcher does not take: `detail` is the piece. */
  | 'UNSUPPORTED';

export class PatternError extends Error {
  override name = 'PatternError';

  constructor(
    readonly code: PatternProblem,
    /** The piece of the pattern refused, or the engine's message for SYNTAX. */
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

export type CharTest = (code: number) => boolean;
export type Assertion = 'start' | 'end' | 'wordBoundary' | 'notWordBoundary';

export type Node =
  | { readonly kind: 'char'; readonly test: CharTest }
  | { readonly kind: 'assert'; readonly assertion: Assertion }
  | { readonly kind: 'sequence'; readonly items: readonly Node[] }
  | { readonly kind: 'either'; readonly options: readonly Node[] }
  | {
      readonly kind: 'repeat';
      readonly item: Node;
      readonly min: number;
      readonly max: number;
      readonly greedy: boolean;
    };

const isDigit: CharTest = (c) => c >= 0x30 && c <= 0x39;
export const isWord: CharTest = (c) => isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
/** JavaScript's `\s`: WhiteSpace and LineTerminator. */
const isSpace: CharTest = (c) =>
  (c >= 0x09 && c <= 0x0d) ||
  c === 0x20 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;
const isLineEnd: CharTest = (c) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
const not =
  (test: CharTest): CharTest =>
  (c) =>
    !test(c);

const CLASS_ESCAPES: Readonly<Record<string, CharTest>> = {
  d: isDigit,
  D: not(isDigit),
  w: isWord,
  W: not(isWord),
  s: isSpace,
  S: not(isSpace),
};
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d };
const QUANTIFIER = /\{(\d+)(?:(,)(\d*))?\}/y;

/** The pattern's tree; throws a PatternError for what the matcher does not take. */
export function parsePattern(source: string): Node {
  return new Parser(source).parse();
}

/** Recursive descent over the pattern's UTF-16 units, as JavaScript reads a pattern without the `u` flag. */
class Parser {
  private at = 0;

  constructor(private readonly source: string) {}

  parse(): Node {
    const tree = this.either();
    // new RegExp accepted it, so only a `)` without its `(` could stop the parse early; it cannot.
    if (this.at < this.source.length) throw new PatternError('UNSUPPORTED', this.source.slice(this.at));
    return tree;
  }

  private either(): Node {
    const options = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as Node) : { kind: 'either', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const from = this.at;
      const atom = this.atom();
      items.push(atom.kind === 'assert' ? atom : this.quantified(atom, from));
    }
    return { kind: 'sequence', items };
  }

  private quantified(item: Node, from: number): Node {
    const character = this.source[this.at];
    let bounds: [number, number] | undefined;
    if (character === '*') bounds = [0, Infinity];
    else if (character === '+') bounds = [1, Infinity];
    else if (character === '?') bounds = [0, 1];
    if (bounds !== undefined) this.at++;
    else if (character === '{') {
      QUANTIFIER.lastIndex = this.at;
      const found = QUANTIFIER.exec(this.source);
      if (found === null) return item;
      this.at = QUANTIFIER.lastIndex;
      const min = Number(found[1]);
      bounds = [min, found[2] === undefined ? min : found[3] === '' ? Infinity : Number(found[3])];
    } else return item;
    const greedy = this.source[this.at] !== '?';
    if (!greedy) this.at++;
    if (bounds[1] > bounds[0] && mayBeEmpty(item))
      throw new PatternError('EMPTY_REPEAT', this.source.slice(from, this.at));
    return { kind: 'repeat', item, min: bounds[0], max: bounds[1], greedy };
  }

  private atom(): Node {
    const character = this.source[this.at++] ?? '';
    switch (character) {
      case '^':
        return { kind: 'assert', assertion: 'start' };
      case '$':
        return { kind: 'assert', assertion: 'end' };
      case '.':
        return { kind: 'char', test: not(isLineEnd) };
      case '(':
        return this.group();
      case '[':
        return this.characterClass();
      case '\\':
        return this.escape();
      default:
        return literal(character.charCodeAt(0));
    }
  }

  private group(): Node {
    const rest = this.source.slice(this.at, this.at + 3);
    if (rest.startsWith('?=') || rest.startsWith('?!') || rest.startsWith('?<=') || rest.startsWith('?<!')) {
      throw new PatternError('LOOKAROUND', `(${rest.startsWith('?<') ? rest : rest.slice(0, 2)}`);
    }
    if (rest.startsWith('?:')) this.at += 2;
    else if (rest.startsWith('?<')) this.at = this.source.indexOf('>', this.at) + 1;
    else if (rest.startsWith('?')) throw new PatternError('UNSUPPORTED', `(${rest.slice(0, 2)}`);
    const inner = this.either();
    this.at++; // the `)`
    // Wrapped, so that a group holding only an assertion still takes a quantifier, as in JavaScript.
    return { kind: 'sequence', items: [inner] };
  }

  private escape(): Node {
    const letter = this.source[this.at] ?? '';
    if (letter === 'b' || letter === 'B') {
      this.at++;
      return { kind: 'assert', assertion: letter === 'b' ? 'wordBoundary' : 'notWordBoundary' };
    }
    if (/[1-9]/.test(letter) || letter === 'k') throw new PatternError('BACKREFERENCE', `\\${letter}`);
    const test = this.escapedCharacter(false);
    return typeof test === 'number' ? literal(test) : { kind: 'char', test };
  }

  /** After a `\`: a class escape's test, or one character's code. */
  private escapedCharacter(inClass: boolean): CharTest | number {
    const letter = this.source[this.at++] ?? '';
    const classTest = CLASS_ESCAPES[letter];
    if (classTest !== undefined) return classTest;
    const control = CONTROL_ESCAPES[letter];
    if (control !== undefined) return control;
    if (inClass && letter === 'b') return 0x08;
    if (letter === 'x' || letter === 'u') {
      const digits = letter === 'x' ? 2 : 4;
      const hex = this.source.slice(this.at, this.at + digits);
      if (new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) {
        this.at += digits;
        return parseInt(hex, 16);
      }
      throw new PatternError('UNSUPPORTED', `\\${letter}${hex}`);
    }
    if (letter === '0' && !/[0-9]/.test(this.source[this.at] ?? '')) return 0;
    if (/[0-9cpPk]/.test(letter)) throw new PatternError('UNSUPPORTED', `\\${letter}`);
    return letter.charCodeAt(0);
  }

  private characterClass(): Node {
    const negated = this.source[this.at] === '^';
    if (negated) this.at++;
    const tests: CharTest[] = [];
    while (this.source[this.at] !== ']') {
      const from = this.classAtom();
      if (this.source[this.at] === '-' && this.source[this.at + 1] !== ']' && this.at + 1 < this.source.length) {
        this.at++;
        const to = this.classAtom();
        if (typeof from === 'number' && typeof to === 'number') {
          tests.push((c) => c >= from && c <= to);
          continue;
        }
        // A range with a class escape on either side is the three parts, as JavaScript reads it.
        tests.push(asTest(from), (c) => c === 0x2d, asTest(to));
        continue;
      }
      tests.push(asTest(from));
    }
    this.at++; // the `]`
    const any: CharTest = (c) => tests.some((test) => test(c));
    return { kind: 'char', test: negated ? not(any) : any };
  }

  private classAtom(): CharTest | number {
    const character = this.source[this.at++] ?? '';
    return character === '\\' ? this.escapedCharacter(true) : character.charCodeAt(0);
  }
}

function literal(code: number): Node {
  return { kind: 'char', test: (c) => c === code };
}

function mayBeEmpty(node: Node): boolean {
  switch (node.kind) {
    case 'char':
      return false;
    case 'assert':
      return true;
    case 'sequence':
      return node.items.every(mayBeEmpty);
    case 'either':
      return node.options.some(mayBeEmpty);
    case 'repeat':
      return node.min === 0 || mayBeEmpty(node.item);
  }
}

function asTest(part: CharTest | number): CharTest {
  return typeof part === 'number' ? (c) => c === part : part;
}
