import assert from 'node:assert/strict';
import { runFuzz, type FuzzReport } from '../../fuzz/runner';

// A fixed seed keeps the cases the same on every run; `npm run fuzz -- --cases N` explores others.
const SEED = 20_261_122;
const CASES = 10_000;

function describeViolations(report: FuzzReport): string {
  const shown = report.violations
    .slice(0, 5)
    .map(
      (violation) =>
        `case ${violation.caseIndex}: ${violation.problem}\n  ${violation.description.slice(0, 300)}\n` +
        `  request: ${violation.request.slice(0, 300)}\n  answer: ${violation.answer.slice(0, 600)}`,
    );
  return `${report.violationCount} violation(s) with seed ${report.seed}:\n${shown.join('\n')}`;
}

describe('server fuzz: malformed requests get only 4xx or a closed connection', function () {
  this.timeout(120_000);

  let report: FuzzReport;

  before(async () => {
    report = await runFuzz({ seed: SEED, cases: CASES });
  });

  it(`answers ${CASES} seeded cases without a 5xx, a hang, a crash or a garbled answer`, () => {
    assert.equal(report.violationCount, 0, describeViolations(report));
  });

  it('reaches past authentication into validation, so the cases are not all refused at the door', () => {
    const statuses = Object.keys(report.statusCounts).map(Number);
    const clientErrors = statuses.filter((status) => status >= 400 && status < 500);
    const successes = statuses.filter((status) => status >= 200 && status < 300);
    const histogram = JSON.stringify(report.statusCounts);
    assert.ok(clientErrors.length >= 6, `expected several distinct 4xx statuses, got ${histogram}`);
    for (const status of [400, 401, 403, 404, 405, 409, 413])
      assert.ok(statuses.includes(status), `expected some ${status} in ${histogram}`);
    assert.ok(successes.length > 0, `expected some 2xx, got ${histogram}`);
  });

  it('keeps serving: every signed GET /healthcheck probe between blocks answered 200', () => {
    assert.equal(report.probes.failed, 0, describeViolations(report));
    assert.ok(report.probes.ok >= CASES / 200, `only ${report.probes.ok} probes answered`);
  });
});
