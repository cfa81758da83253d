import assert from 'node:assert/strict';
import { HOST_TEST_PACKAGES, planAptInstall } from '../../extension/host/debianPackages';

describe('host/planAptInstall', () => {
  it('does nothing when every package is there, whoever runs it', () => {
    for (const root of [true, false]) {
      for (const passwordlessSudo of [true, false]) {
        assert.deepEqual(planAptInstall({ missing: [], root, passwordlessSudo }), { kind: 'nothing' });
      }
    }
  });

  it('installs the missing packages, and only those, with apt-get when running as root', () => {
    const plan = planAptInstall({ missing: ['chromium', 'ripgrep'], root: true, passwordlessSudo: false });
    assert.deepEqual(plan, {
      kind: 'install',
      announce: 'Installing Debian packages the host tests need: chromium ripgrep (apt-get).',
      commands: [
        ['apt-get', 'update'],
        [
          'env',
          'DEBIAN_FRONTEND=noninteractive',
          'apt-get',
          'install',
          '-y',
          '--no-install-recommends',
          'chromium',
          'ripgrep',
        ],
      ],
    });
  });

  it('goes through sudo -n, which never asks for a password, when sudo needs none', () => {
    const plan = planAptInstall({ missing: ['g++'], root: false, passwordlessSudo: true });
    assert.ok(plan.kind === 'install', plan.kind);
    assert.deepEqual(plan.commands, [
      ['sudo', '-n', 'apt-get', 'update'],
      [
        'sudo',
        '-n',
        'env',
        'DEBIAN_FRONTEND=noninteractive',
        'apt-get',
        'install',
        '-y',
        '--no-install-recommends',
        'g++',
      ],
    ]);
    assert.match(plan.announce, /through sudo/);
  });

  it('asks in one sentence with the exact command when it can neither be root nor use sudo without a password', () => {
    const plan = planAptInstall({ missing: ['chromium', 'fonts-dejavu-core'], root: false, passwordlessSudo: false });
    assert.ok(plan.kind === 'ask', plan.kind);
    const { sentence } = plan;
    assert.ok(
      sentence.includes(
        '`sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium fonts-dejavu-core`',
      ),
      sentence,
    );
    assert.equal(sentence.split(/[.:] (?=[A-Z])/).length, 1, `not one sentence: ${sentence}`);
    assert.ok(sentence.endsWith('.'));
  });

  it('keeps root ahead of sudo: no sudo when running as root', () => {
    const plan = planAptInstall({ missing: ['git'], root: true, passwordlessSudo: true });
    assert.ok(plan.kind === 'install' && plan.commands.every((command) => command[0] !== 'sudo'));
  });

  it('names the packages the build of code-server, the browser and the extension need', () => {
    assert.deepEqual([...HOST_TEST_PACKAGES].sort(), [
      'chromium',
      'fonts-dejavu-core',
      'g++',
      'git',
      'libkrb5-dev',
      'make',
      'python3',
      'ripgrep',
    ]);
  });
});
