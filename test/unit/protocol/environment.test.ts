import assert from 'node:assert/strict';
import { PORT_ENVIRONMENT_VARIABLES, TOKEN_ENVIRONMENT_VARIABLES } from '../../../src/protocol/constants';
import { firstSetVariable } from '../../../src/protocol/environment';

describe('protocol/environment: the first set variable wins', () => {
  it('lists the names in the order of PROTOCOL.md §8: Clessira, NowDoing, then the service document', () => {
    assert.deepEqual(TOKEN_ENVIRONMENT_VARIABLES, ['CLESSIRA_TOKEN', 'NOWDOING_TOKEN', 'SERVICE_TOKEN']);
    assert.deepEqual(PORT_ENVIRONMENT_VARIABLES, ['CLESSIRA_PORT', 'NOWDOING_PORT', 'SERVICE_PORT']);
  });

  it('returns the first name that is set, with its value', () => {
    const names = TOKEN_ENVIRONMENT_VARIABLES;
    assert.deepEqual(firstSetVariable({ CLESSIRA_TOKEN: 'a', NOWDOING_TOKEN: 'b', SERVICE_TOKEN: 'c' }, names), {
      name: 'CLESSIRA_TOKEN',
      value: 'a',
    });
    assert.deepEqual(firstSetVariable({ NOWDOING_TOKEN: 'b', SERVICE_TOKEN: 'c' }, names), {
      name: 'NOWDOING_TOKEN',
      value: 'b',
    });
    assert.deepEqual(firstSetVariable({ SERVICE_TOKEN: 'c', OTHER: 'x' }, names), {
      name: 'SERVICE_TOKEN',
      value: 'c',
    });
  });

  it('skips a variable set to the empty string or to undefined, and says undefined when none is set', () => {
    const names = PORT_ENVIRONMENT_VARIABLES;
    assert.deepEqual(firstSetVariable({ CLESSIRA_PORT: '', NOWDOING_PORT: undefined, SERVICE_PORT: '40000' }, names), {
      name: 'SERVICE_PORT',
      value: '40000',
    });
    assert.equal(firstSetVariable({ CLESSIRA_PORT: '', SERVICE_PORT: '' }, names), undefined);
    assert.equal(firstSetVariable({}, names), undefined);
    assert.equal(firstSetVariable({ SERVICE_PORT: '1' }, []), undefined);
  });

  it("keeps the value as it is: checking it is the caller's job", () => {
    assert.deepEqual(firstSetVariable({ CLESSIRA_PORT: ' 80 ' }, PORT_ENVIRONMENT_VARIABLES), {
      name: 'CLESSIRA_PORT',
      value: ' 80 ',
    });
  });
});
