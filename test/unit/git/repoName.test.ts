import assert from 'node:assert/strict';
import { withoutCredentials } from '../../../src/git/repoName';

describe('git/repoName withoutCredentials', () => {
  it('drops whatever precedes @ and the query in every form a remote is written, parsed or not', () => {
    const forms: readonly (readonly [string, string, string])[] = [
      ['https', 'https://alice:s3cret@github.com/acme/shop.git', 'https://github.com/acme/shop.git'],
      [
        'a URL that does not parse',
        'https://alice:s3cret@[github.com/acme/shop.git',
        'https://[github.com/acme/shop.git',
      ],
      [
        'a port out of range',
        'https://alice:s3cret@github.com:99999/acme/shop.git',
        'https://github.com:99999/acme/shop.git',
      ],
      ['a space in the host', 'https://alice:s3cret@git hub.com/acme/shop.git', 'https://git hub.com/acme/shop.git'],
      [
        'a token in the query',
        'https://github.com/acme/shop.git?access_token=s3cret',
        'https://github.com/acme/shop.git',
      ],
      ['scp-style', 'alice:s3cret@github.com:acme/shop.git', 'github.com:acme/shop.git'],
    ];
    for (const [form, url, expected] of forms) {
      const stripped = withoutCredentials(url);
      assert.equal(stripped, expected, form);
      assert.doesNotMatch(stripped, /s3cret|alice/, form);
    }
  });

  it('finds the end of the user part by the host, not by a ? or # in the password', () => {
    assert.equal(
      withoutCredentials('https://alice:s3?cr#et@github.com/acme/shop.git'),
      'https://github.com/acme/shop.git',
    );
    assert.equal(
      withoutCredentials('https://alice:s3@cret@github.com/acme/shop.git'),
      'https://github.com/acme/shop.git',
    );
    assert.equal(withoutCredentials('https://github.com?token=s3cret'), 'https://github.com');
    assert.equal(withoutCredentials('ssh://git@github.com/acme/shop.git#s3cret'), 'ssh://github.com/acme/shop.git');
  });

  it('keeps a URL without credentials as written', () => {
    for (const url of [
      'https://github.com/acme/shop.git',
      'github.com:acme/shop.git',
      '/srv/git/shop.git',
      'file:///srv/git/shop.git',
    ])
      assert.equal(withoutCredentials(url), url);
    assert.equal(
      withoutCredentials('https://github.com/acme/shop@2.git'),
      'https://github.com/acme/shop@2.git',
      'an @ in the path',
    );
  });
});
