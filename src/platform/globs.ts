/**
 * The globs users write in settings, matched against a whole name: `timeTracker.git.ignoreBranches`
 * (branch names) and `timeTracker.links` (branch names and folder paths, issue 25). `*` matches within
 * one path segment, `**` across segments, `?` one character (not `/`). Here in src/platform because
 * both src/git and src/tracker use it and neither may import the other.
 *
 * Matched by walking the branch once while keeping the set of places in the pattern reached so
 * far, never by a regular expression: a workspace can set the patterns, and a backtracking match
 * of `*a*a*a*a*a*a*a*a*a*a*a*b` against 30 `a`s took 10 s, long enough to hang the extension host
 * (issue 12). This takes branch length × pattern length steps, whatever the pattern.
 */
export function compileGlobs(patterns: readonly string[]): (name: string) => boolean {
  const globs = patterns.filter((pattern) => pattern.trim() !== '').map((pattern) => compileGlob(pattern.trim()));
  return (name) => {
    const characters = Array.from(name);
    return globs.some((glob) => matches(glob, characters));
  };
}

/** One step of a pattern: a character as it is, or a wildcard. */
type Step = { readonly literal: string } | 'one' | 'segment' | 'any';

function compileGlob(glob: string): Step[] {
  const steps: Step[] = [];
  const characters = Array.from(glob);
  for (let i = 0; i < characters.length; i++) {
    const character = characters[i] ?? '';
    if (character === '*' && characters[i + 1] === '*') {
      steps.push('any');
      i++;
    } else if (character === '*') {
      steps.push('segment');
    } else if (character === '?') {
      steps.push('one');
    } else {
      steps.push({ literal: character });
    }
  }
  return steps;
}

/**
 * `reached[i]`: the first `i` steps can match what was read so far. A star is passed over without
 * reading (`closeOverStars`), and stays reached while it reads what it may read.
 */
function matches(steps: readonly Step[], characters: readonly string[]): boolean {
  let reached = new Uint8Array(steps.length + 1);
  let next = new Uint8Array(steps.length + 1);
  reached[0] = 1;
  closeOverStars(steps, reached);
  for (const character of characters) {
    next.fill(0);
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      if (step === undefined || reached[i] !== 1) continue;
      const stays = step === 'any' || (step === 'segment' && character !== '/');
      const advances = step === 'one' ? character !== '/' : typeof step === 'object' && step.literal === character;
      if (stays) next[i] = 1;
      if (advances) next[i + 1] = 1;
    }
    closeOverStars(steps, next);
    if (!next.includes(1)) return false;
    [reached, next] = [next, reached];
  }
  return reached[steps.length] === 1;
}

/** A star may match nothing: reaching it reaches the step after it too. */
function closeOverStars(steps: readonly Step[], reached: Uint8Array): void {
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    if (reached[i] === 1 && (step === 'any' || step === 'segment')) reached[i + 1] = 1;
  }
}
