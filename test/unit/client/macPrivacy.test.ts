import assert from 'node:assert/strict';
import { deniedByMacPrivacy } from '../../../src/client/macPrivacy';

describe("client/macPrivacy: the Mac's consent to read another app's data", () => {
  it("tells EPERM in an app's container or group container on darwin from a file's own permissions", () => {
    const file = '/Users/u/Library/Containers/com.mattes.clessira/Data/api-endpoint.json';
    const socket = '/Users/u/Library/Group Containers/ABCDE.com.mattes.clessira/api.sock';
    assert.equal(deniedByMacPrivacy(file, 'EPERM', 'darwin'), true);
    assert.equal(deniedByMacPrivacy(socket, 'EPERM', 'darwin'), true);
    assert.equal(deniedByMacPrivacy(file, 'EACCES', 'darwin'), false, 'the mode bits say no');
    assert.equal(deniedByMacPrivacy(file, 'EPERM', 'linux'), false);
    assert.equal(deniedByMacPrivacy('/Users/u/api-endpoint.json', 'EPERM', 'darwin'), false);
  });
});
