/**
 * Every timer of src/ goes through src/platform/timers.ts, which bounds its delay: eslint.config.mjs
 * refuses the timer globals everywhere else in src/. This lints a line that sets one, through
 * ESLint's own API with the real config and that rule alone.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const repoRoot = join(__dirname, '..', '..', '..', '..');

describe('lint/timers: eslint.config.mjs refuses a timer set outside src/platform/timers.ts', function () {
  this.timeout(60_000);
  const eslint = new ESLint({
    cwd: repoRoot,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-globals',
  });

  async function refusals(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: join(repoRoot, file) });
    assert.ok(result, 'ESLint gave no result');
    assert.deepEqual(
      result.messages.filter((message) => message.fatal === true),
      [],
      'the file parsed',
    );
    return result.messages
      .filter((message) => message.ruleId === 'no-restricted-globals')
      .map((message) => message.message);
  }

  for (const file of [
    'src/tracker/model/timer.ts',
    'src/client/timer.ts',
    'src/extension/timer.ts',
    'src/server/timer.ts',
    'src/platform/other.ts',
  ]) {
    it(`refuses setTimeout and setInterval in ${file}`, async () => {
      const messages = await refusals(
        file,
        'export const a = setTimeout(() => undefined, 1e10);\nexport const b = setInterval(() => undefined, 1e10);\n',
      );
      assert.equal(messages.length, 2, JSON.stringify(messages));
      assert.match(messages[0] ?? '', /src\/platform\/timers\.ts/);
    });
  }

  it('allows them in src/platform/timers.ts and in the tests', async () => {
    const code = 'export const a = setTimeout(() => undefined, 1);\n';
    assert.deepEqual(await refusals('src/platform/timers.ts', code), []);
    assert.deepEqual(await refusals('test/unit/timer.test.ts', code), []);
  });
});
