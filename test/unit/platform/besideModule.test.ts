/**
 * loadBeside is how the activation bundle reaches the core and the core the rest: a module
 * found beside the caller's file, not the loader's, and a failure that names the part, the file
 * and the reason (the user reads it in the error message that says why the extension cannot start).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBeside } from '../../../src/platform/besideModule';

describe('loadBeside', () => {
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'tt-beside-'));
  });

  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it("loads the module beside the caller's file, not beside the loader", () => {
    writeFileSync(join(folder, 'part.js'), 'exports.answer = 42;');
    const loaded = loadBeside(join(folder, 'main.js'), './part', 'The part') as { answer: number };
    assert.equal(loaded.answer, 42);
  });

  it('says which part, which file and why when it is missing', () => {
    const caller = join(folder, 'main.js');
    assert.throws(
      () => loadBeside(caller, './core', "Time Tracker's core"),
      (error: Error) => {
        assert.ok(
          error.message.startsWith(
            `Time Tracker's core (./core.js beside ${caller}) could not be loaded: Cannot find module './core'`,
          ),
          error.message,
        );
        assert.match(error.message, /Reinstall the extension\.$/);
        return true;
      },
    );
  });

  it('passes on the error a module throws while it loads, as the cause', () => {
    writeFileSync(join(folder, 'broken.js'), "throw new Error('half written');");
    assert.throws(
      () => loadBeside(join(folder, 'main.js'), './broken', 'The part'),
      (error: Error) => error.message.includes('could not be loaded: half written') && error.cause instanceof Error,
    );
  });
});
