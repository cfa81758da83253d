import assert from 'node:assert/strict';
import { formatCapability, parseCapability } from '../../../src/protocol/capability';

const TOKEN = 'secret-capability-token-1f9e';
const valid = {
  version: 1,
  socketPath: '/Users/u/Library/Containers/com.mattes.nowdoing/Data/api.sock',
  token: TOKEN,
  pid: 4242,
};

describe('protocol/capability: the VS Code integration file', () => {
  it('reads the file the app writes, and writes the same', () => {
    const parsed = parseCapability(JSON.stringify(valid));
    assert.deepEqual(parsed, { ok: true, capability: valid });
    assert.deepEqual(parseCapability(formatCapability(valid)), parsed);
    assert.deepEqual(
      parseCapability(JSON.stringify({ ...valid, extra: [1, 2], later: { field: true } })),
      parsed,
      'unknown fields are ignored',
    );
  });

  it('refuses each defect with one sentence that names it, and never quotes the token', () => {
    const cases: [string, RegExp, 'invalid' | 'newer'][] = [
      ['', /^it is empty\.$/, 'invalid'],
      ['{"version": 1,', /^it is not JSON\.$/, 'invalid'],
      ['[1]', /^it is not a JSON object\.$/, 'invalid'],
      ['null', /^it is not a JSON object\.$/, 'invalid'],
      ['"text"', /^it is not a JSON object\.$/, 'invalid'],
      [JSON.stringify({ ...valid, version: undefined }), /^"version" is missing\.$/, 'invalid'],
      [
        JSON.stringify({ ...valid, version: 2 }),
        /^it has version 2, and this extension reads version 1: the app is newer than this extension\.$/,
        'newer',
      ],
      [JSON.stringify({ ...valid, version: 0 }), /^"version" must be 1, not 0\.$/, 'invalid'],
      [JSON.stringify({ ...valid, version: '1' }), /^"version" must be 1, not "1"\.$/, 'invalid'],
      [JSON.stringify({ ...valid, version: 1.5 }), /^"version" must be 1, not 1\.5\.$/, 'invalid'],
      [
        JSON.stringify({ ...valid, socketPath: '' }),
        /^"socketPath" must be a non-empty string, not empty\.$/,
        'invalid',
      ],
      [JSON.stringify({ ...valid, socketPath: 7 }), /^"socketPath" must be a non-empty string, not 7\.$/, 'invalid'],
      [
        JSON.stringify({ ...valid, socketPath: undefined }),
        /^"socketPath" must be a non-empty string, not missing\.$/,
        'invalid',
      ],
      [JSON.stringify({ ...valid, token: '' }), /^"token" must be a non-empty string, not empty\.$/, 'invalid'],
      [JSON.stringify({ ...valid, token: 12345 }), /^"token" must be a non-empty string, not a number\.$/, 'invalid'],
      [JSON.stringify({ ...valid, token: [TOKEN] }), /^"token" must be a non-empty string, not an array\.$/, 'invalid'],
      [JSON.stringify({ ...valid, pid: '4242' }), /^"pid" must be a whole number, not "4242"\.$/, 'invalid'],
      [JSON.stringify({ ...valid, pid: 42.5 }), /^"pid" must be a whole number, not 42\.5\.$/, 'invalid'],
      [JSON.stringify({ ...valid, pid: null }), /^"pid" must be a whole number, not null\.$/, 'invalid'],
    ];
    for (const [text, pattern, defect] of cases) {
      const parsed = parseCapability(text);
      if (parsed.ok) assert.fail(`accepted: ${text}`);
      assert.equal(parsed.defect, defect, text);
      assert.match(parsed.message, pattern, text);
      assert.doesNotMatch(parsed.message, new RegExp(TOKEN), text);
    }
  });

  it('quotes a wrong value on one line: a line break in it cannot forge a second log line', () => {
    const forged = '1\n2026-01-01 10:00:00.000 [info] Talking to the app through evil.example';
    for (const field of ['version', 'pid'] as const) {
      const parsed = parseCapability(JSON.stringify({ ...valid, [field]: forged }));
      if (parsed.ok) assert.fail(`accepted a ${field} of ${forged}`);
      assert.doesNotMatch(parsed.message, /[\r\n\u2028\u2029]/, field);
      assert.match(parsed.message, /not "1\\n2026-01-01 10:00:00\.000 \[info\] Talking…"\.$/, field);
    }
  });

  it('does not let a __proto__ key stand in for a field', () => {
    const parsed = parseCapability(`{"__proto__": {"version": 1, "socketPath": "/s", "token": "t", "pid": 1}}`);
    assert.equal(parsed.ok, false);
  });
});
