/**
 * Loads a module that ships as a bundle of its own beside the caller's file. The extension is
 * three bundles in dist/ (esbuild.mjs): the activation bundle VS Code runs before `activate`, the
 * core it loads once `activate` has returned (the path to the first status bar text), and the rest
 * the core loads after that text.
 * A require made through createRequire is one esbuild does not follow, so each stays out of the
 * bundle that loads it; in the tests the same call finds the compiled sources in out/.
 * The caller passes its own `__filename` (in a bundle that is the bundle, in out/ its own file)
 * and says what the module is: the answer is `unknown` until the caller names its type.
 */
import { createRequire } from 'node:module';
import { errorMessage } from './errors';

/**
 * Loads `moduleName` (e.g. `./core`) from beside `callerFile`, once (Node keeps it); a failure
 * names `what` it is, which file, and why.
 */
export function loadBeside(callerFile: string, moduleName: string, what: string): unknown {
  try {
    return createRequire(callerFile)(moduleName) as unknown;
  } catch (error) {
    throw new Error(
      `${what} (${moduleName}.js beside ${callerFile}) could not be loaded: ${errorMessage(error)}. Reinstall the extension.`,
      { cause: error },
    );
  }
}
