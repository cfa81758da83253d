import assert from 'node:assert/strict';
import type { LedgerRow } from '../../../../src/tracker/branchTime/ledgerBook';
import { csvField, csvFileName, ledgerCsv } from '../../../../src/tracker/branchTime/ledgerCsv';
import { ticketKeys, type TicketKeys } from '../../../../src/tracker/branchTime/ticketKeys';

function row(day: string, branch: string, activityName: string, ms: number, repository = 'api'): LedgerRow {
  return {
    root: `/repos/${repository}`,
    repository,
    branch,
    activityID: activityName.toUpperCase(),
    activityName,
    day,
    ms,
    firstMs: 0,
    lastMs: ms,
  };
}

const tickets = ticketKeys([]);

describe('tracker/branchTime/ledgerCsv', () => {
  it('writes the header and one CRLF line per ledger row of the range, sorted, with the ticket and whole seconds', () => {
    const rows = [
      row('2026-11-26', 'main', 'Review', 61_400, 'web'),
      row('2026-11-25', 'feature/PROJ-7-login', 'Development', 5_400_499),
      row('2026-11-20', 'old', 'Development', 1_000),
    ];
    const csv = ledgerCsv(rows, { fromDay: '2026-11-23', toDay: '2026-11-27' }, tickets);
    assert.deepEqual(csv, {
      text: '\uFEFFdate,repository,branch,ticket,activity,seconds\r\n2026-11-25,api,feature/PROJ-7-login,PROJ-7,Development,5400\r\n2026-11-26,web,main,,Review,61\r\n',
      rows: 2,
      days: { fromDay: '2026-11-25', toDay: '2026-11-26' },
    });
    assert.equal(ledgerCsv(rows, undefined, tickets)?.rows, 3, 'without a range: every kept day');
  });

  it('starts with one byte-order mark, so a spreadsheet reads the names as UTF-8', () => {
    const text = ledgerCsv([row('2026-11-25', 'main', 'Überstunden', 60_000)], undefined, tickets)?.text ?? '';
    assert.ok(text.startsWith('\uFEFFdate,'), JSON.stringify(text.slice(0, 8)));
    assert.equal(text.indexOf('\uFEFF', 1), -1, 'and only there');
    assert.ok(
      new TextEncoder()
        .encode(text)
        .subarray(0, 3)
        .every((byte, i) => byte === [0xef, 0xbb, 0xbf][i]),
    );
  });

  it('has nothing to write for a range without rows', () => {
    assert.equal(
      ledgerCsv(
        [row('2026-11-20', 'old', 'Development', 1_000)],
        { fromDay: '2026-11-23', toDay: '2026-11-27' },
        tickets,
      ),
      undefined,
    );
    assert.equal(ledgerCsv([], undefined, tickets), undefined);
  });

  it("computes each branch's key once per case rule, not once per row: 10,000 rows of 20 branches under two rules, 40 computations", () => {
    const branches = Array.from({ length: 20 }, (_, index) => `feature/PROJ-${index}-work`);
    const rows = Array.from({ length: 10_000 }, (_, index) => ({
      ...row(
        `2026-11-${String(1 + (index % 28)).padStart(2, '0')}`,
        branches[index % 20]!,
        `Task ${index % 7}`,
        60_000,
      ),
      ...(index % 40 < 20 ? {} : { ignoresCase: true as const }),
    }));
    const asked = new Map<string, number>();
    const counted: TicketKeys = {
      keyOf: (branch, ignoresCase) => {
        const key = `${branch} ${ignoresCase}`;
        asked.set(key, (asked.get(key) ?? 0) + 1);
        return tickets.keyOf(branch, ignoresCase);
      },
    };
    const csv = ledgerCsv(rows, undefined, counted);
    assert.equal(csv?.rows, 10_000);
    assert.equal(asked.size, 40, 'each branch under both case rules');
    assert.deepEqual([...new Set(asked.values())], [1], 'each pair computed once');
    assert.ok(csv.text.includes(',feature/PROJ-19-work,PROJ-19,'), 'and its key written on every row');
  });

  it("finds the key as the row's repository compares case", () => {
    const caseless = { ...row('2026-11-25', 'feature/proj-7', 'Review', 1_000), ignoresCase: true as const };
    const listed = ticketKeys(['PROJ']);
    assert.equal(
      ledgerCsv([caseless], undefined, listed)?.text.split('\r\n')[1],
      '2026-11-25,api,feature/proj-7,PROJ-7,Review,1',
    );
    const exact = row('2026-11-25', 'feature/proj-7', 'Review', 1_000);
    assert.equal(
      ledgerCsv([exact], undefined, listed)?.text.split('\r\n')[1],
      '2026-11-25,api,feature/proj-7,,Review,1',
    );
  });

  it('quotes as RFC 4180 says: a comma, a double quote, CR or LF in quotes, quotes doubled', () => {
    assert.equal(csvField('plain name'), 'plain name');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\nlines'), '"two\nlines"');
    assert.equal(csvField('cr\rhere'), '"cr\rhere"');
  });

  it('neutralizes a field a spreadsheet would run as a formula with a leading apostrophe', () => {
    for (const field of ['=HYPERLINK("http://x")', '+1', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd']) {
      const written = csvField(field);
      const unquoted = written.startsWith('"') ? written.slice(1, -1).replace(/""/g, '"') : written;
      assert.equal(unquoted, `'${field}`, field);
    }
    const csv = ledgerCsv([row('2026-11-25', '=cmd|"/c calc"!A1', '-Review, then merge', 400)], undefined, tickets);
    assert.equal(csv?.text.split('\r\n')[1], `2026-11-25,api,"'=cmd|""/c calc""!A1",,"'-Review, then merge",0`);
  });

  it('names the file after the range', () => {
    assert.equal(csvFileName({ fromDay: '2026-11-27', toDay: '2026-11-27' }), 'time-by-branch-2026-11-27.csv');
    assert.equal(
      csvFileName({ fromDay: '2026-11-23', toDay: '2026-11-27' }),
      'time-by-branch-2026-11-23-to-2026-11-27.csv',
    );
  });
});
