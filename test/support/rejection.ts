import assert from 'node:assert/strict';

/** The error a promise rejects with; fails the test if it resolves. For asserting on its fields. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return assert.fail('expected the call to fail');
}
