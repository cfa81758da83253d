import assert from 'node:assert/strict';
import { signingHeaderNames } from '../../../src/protocol/headers';
import {
  bodySha256Hex,
  canonicalString,
  constantTimeEqual,
  isWellFormedNonce,
  isWellFormedSignature,
  nonceKey,
  parseTimestamp,
  signRequest,
  timestampFor,
  verifySignature,
} from '../../../src/protocol/signing';

// Published in docs/PROTOCOL.md. Computed independently with
// `printf '<canonical string>' | openssl dgst -sha256 -hmac test-token`, not with this code.
const STATUS_VECTOR = {
  token: 'test-token',
  method: 'GET',
  target: '/status',
  timestamp: '1764000000',
  nonce: '00000000000000000000000000000000',
  signature: '82bc8fdfd0c6e8d1b7399fed51eed6223fd73d429412be850de5b06784ddda1d',
};
const ENTRY_BODY = '{"name":"Deep work","durationMinutes":25,"note":"pairing","createIfMissing":true}';
const ENTRY_VECTOR = {
  token: 'test-token',
  method: 'POST',
  target: '/entries',
  timestamp: '1764000000',
  nonce: '0123456789abcdef0123456789abcdef',
  body: ENTRY_BODY,
  bodyHash: '708485883b0dd1231fa86948ba1390bfdb9cc31aa18b391f450f2c745b33fb69',
  signature: 'e1b0e37761f20101a6c12902408b502eb5f713478e41c38a9c5e6ac1b88a7935',
};

describe('protocol/signing', () => {
  describe('test vectors of docs/PROTOCOL.md', () => {
    it('signs the GET /status example of PROTOCOL.md §1', () => {
      assert.equal(signRequest(STATUS_VECTOR), STATUS_VECTOR.signature);
    });

    it('hashes an absent body as the empty string', () => {
      assert.equal(bodySha256Hex(), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
      assert.equal(bodySha256Hex(''), bodySha256Hex());
      assert.equal(bodySha256Hex(new Uint8Array()), bodySha256Hex());
    });

    it('signs a POST /entries with a JSON body', () => {
      assert.equal(bodySha256Hex(ENTRY_BODY), ENTRY_VECTOR.bodyHash);
      assert.equal(signRequest(ENTRY_VECTOR), ENTRY_VECTOR.signature);
    });

    it('takes the body as UTF-8 text or as the same bytes', () => {
      const body = '{"note":"café ☕"}';
      assert.equal(
        signRequest({ ...ENTRY_VECTOR, body }),
        signRequest({ ...ENTRY_VECTOR, body: new TextEncoder().encode(body) }),
      );
    });
  });

  describe('canonical string', () => {
    it('is five lines joined by \\n with no trailing newline', () => {
      const text = canonicalString('get', '/activities/search?q=a%20b&limit=5', '1764000000', 'n'.repeat(16), 'h');
      assert.equal(text, `GET\n/activities/search?q=a%20b&limit=5\n1764000000\n${'n'.repeat(16)}\nh`);
    });

    it('signs the method upper-cased, so the case given does not matter', () => {
      assert.equal(signRequest({ ...STATUS_VECTOR, method: 'get' }), STATUS_VECTOR.signature);
    });

    it('changes when any signed part changes', () => {
      const variants = [
        { ...STATUS_VECTOR, target: '/status?x=1' },
        { ...STATUS_VECTOR, timestamp: '1764000001' },
        { ...STATUS_VECTOR, nonce: '00000000000000000000000000000001' },
        { ...STATUS_VECTOR, token: 'test-token2' },
        { ...STATUS_VECTOR, body: ' ' },
        { ...STATUS_VECTOR, method: 'POST' },
      ];
      for (const variant of variants) assert.notEqual(signRequest(variant), STATUS_VECTOR.signature);
    });
  });

  describe('verification', () => {
    const input = { ...ENTRY_VECTOR, bodyHashHex: ENTRY_VECTOR.bodyHash };

    it('accepts the right signature', () => {
      assert.equal(verifySignature(input), true);
    });

    it('refuses a wrong, short, long or upper-case signature without throwing', () => {
      assert.equal(verifySignature({ ...input, signature: input.signature.replace(/^./, '0') }), false);
      assert.equal(verifySignature({ ...input, signature: input.signature.slice(0, 63) }), false);
      assert.equal(verifySignature({ ...input, signature: `${input.signature}0` }), false);
      assert.equal(verifySignature({ ...input, signature: input.signature.toUpperCase() }), false);
      assert.equal(verifySignature({ ...input, signature: '' }), false);
    });

    it('compares strings of different lengths as unequal instead of throwing', () => {
      assert.equal(constantTimeEqual('abc', 'abc'), true);
      assert.equal(constantTimeEqual('abc', 'abcd'), false);
      assert.equal(constantTimeEqual('', 'a'), false);
      assert.equal(constantTimeEqual('é', 'e'), false);
    });
  });

  describe('header values', () => {
    it('accepts timestamps in decimal without sign or leading zeros', () => {
      assert.equal(parseTimestamp('1764000000'), 1764000000);
      assert.equal(parseTimestamp('0'), 0);
      for (const bad of ['', '01764000000', '+1764000000', '-1', '1764000000.5', ' 1764000000', '1e9', '１']) {
        assert.equal(parseTimestamp(bad), undefined, bad);
      }
    });

    it('takes whole seconds of the clock for the timestamp', () => {
      assert.equal(timestampFor(1_764_000_000_999), '1764000000');
    });

    it('accepts nonces of 16 to 128 ASCII letters and digits, and nothing else', () => {
      assert.equal(isWellFormedNonce('a'.repeat(16)), true);
      assert.equal(isWellFormedNonce('AzZa09'.repeat(21) + 'xy'), true, '128 characters');
      assert.equal(isWellFormedNonce('0123456789abcdef0123456789ABCDEF'), true);
      assert.equal(isWellFormedNonce('a'.repeat(15)), false);
      assert.equal(isWellFormedNonce('a'.repeat(129)), false);
      assert.equal(isWellFormedNonce(`${'a'.repeat(16)}=`), false);
      assert.equal(isWellFormedNonce(`${'a'.repeat(16)}_`), false, 'the application refuses _');
      assert.equal(isWellFormedNonce(`${'a'.repeat(16)}-`), false, 'the application refuses -');
      assert.equal(isWellFormedNonce(`${'a'.repeat(16)}é`), false);
    });

    it('keys nonces lower-cased, as the application compares them', () => {
      assert.equal(nonceKey('AbCdEf0123456789'), 'abcdef0123456789');
      assert.equal(nonceKey('ABCDEF0123456789'), nonceKey('abcdef0123456789'));
    });

    it('accepts only 64 lower-case hex digits as a signature', () => {
      assert.equal(isWellFormedSignature(STATUS_VECTOR.signature), true);
      assert.equal(isWellFormedSignature(STATUS_VECTOR.signature.toUpperCase()), false);
      assert.equal(isWellFormedSignature(`sha256=${STATUS_VECTOR.signature}`), false);
    });

    it('names the headers from the prefix, current and pre-rebrand', () => {
      assert.deepEqual(signingHeaderNames(), {
        token: 'X-Clessira-Token',
        timestamp: 'X-Clessira-Timestamp',
        nonce: 'X-Clessira-Nonce',
        signature: 'X-Clessira-Signature',
      });
      assert.equal(signingHeaderNames('NowDoing').signature, 'X-NowDoing-Signature');
    });
  });
});
