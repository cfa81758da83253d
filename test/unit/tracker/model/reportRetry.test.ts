import assert from 'node:assert/strict';
import {
  AnswerLostError,
  AuthenticationError,
  ConnectionError,
  HttpError,
  UnavailableError,
  ValidationError,
} from '../../../../src/client/errors';
import {
  REPORT_GIVE_UP_MS,
  REPORT_WAIT_LIFE_MS,
  ReportRetry,
  retryable,
  type SendResult,
  type Undelivered,
} from '../../../../src/tracker/model/reportRetry';
import { ManualTime } from '../../../support/manualTime';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const refused = (): ConnectionError => new ConnectionError('refused', false);
const SENT: SendResult = 'sent';

describe('tracker/reportRetry: branch reports the app could not take yet', () => {
  it('tries again only what surely did not arrive: 429, 503, a refused connection', () => {
    assert.equal(retryable(new HttpError(429, 'locked out', '', 30)), true);
    assert.equal(retryable(new UnavailableError('not wired')), true);
    assert.equal(retryable(refused()), true);
    for (const error of [
      new ConnectionError('reset', true),
      new AnswerLostError('lost'),
      new AuthenticationError('bad'),
      new HttpError(423, 'locked', ''),
      new ValidationError('bad'),
      new HttpError(500, 'x', ''),
      new Error('odd'),
    ]) {
      assert.equal(retryable(error), false, error.message);
    }
  });

  it('retries with a growing pause until the app takes it, and sends it once then', async () => {
    const time = new ManualTime();
    const answers: (Error | undefined)[] = [
      refused(),
      new HttpError(429, 'x', '', 5),
      new UnavailableError('x'),
      undefined,
    ];
    const sent: string[] = [];
    const settled: string[] = [];
    const retry = new ReportRetry<string>({
      send: (report) => {
        sent.push(report);
        const answer = answers.shift();
        return answer ? Promise.reject(answer) : Promise.resolve(SENT);
      },
      onSettled: (report, outcome) => settled.push(`${report}: ${outcome}`),
      clock: () => time.now,
      timers: time,
    });
    assert.equal(await retry.submit('/repo', 'feature'), 'retry');
    const waits: number[] = [];
    while (time.pending.size > 0) {
      waits.push(time.fire());
      await settle();
    }
    assert.deepEqual(waits, [2_000, 4_000, 8_000]);
    assert.deepEqual(sent, ['feature', 'feature', 'feature', 'feature']);
    assert.deepEqual(settled, ['feature: delivered']);
    assert.equal(retry.pending, 0);
  });

  it('drops a report that may have arrived or that the app refused, with no retry', async () => {
    const time = new ManualTime();
    for (const error of [new ConnectionError('reset', true), new HttpError(423, 'locked', '')]) {
      let sends = 0;
      const retry = new ReportRetry<string>({
        send: () => (sends++, Promise.reject(error)),
        clock: () => time.now,
        timers: time,
      });
      assert.equal(await retry.submit('/repo', 'feature'), 'failed');
      assert.equal(sends, 1);
      assert.equal(time.pending.size, 0);
    }
  });

  it('keeps only the newest switch per repository', async () => {
    const time = new ManualTime();
    let appBack = false;
    const sent: string[] = [];
    const settled: string[] = [];
    const retry = new ReportRetry<string>({
      send: (report) => {
        sent.push(report);
        return appBack ? Promise.resolve(SENT) : Promise.reject(refused());
      },
      onSettled: (report, outcome) => settled.push(`${report}: ${outcome}`),
      clock: () => time.now,
      timers: time,
    });
    assert.equal(await retry.submit('/a', 'one'), 'retry');
    assert.equal(await retry.submit('/b', 'other repo'), 'retry');
    assert.equal(await retry.submit('/a', 'two'), 'retry');
    assert.deepEqual(settled, ['one: replaced']);
    appBack = true;
    while (time.pending.size > 0) {
      time.fire();
      await settle();
    }
    assert.deepEqual(sent.slice(3).sort(), ['other repo', 'two']);
    assert.equal(sent.filter((report) => report === 'one').length, 1, 'the replaced switch is never sent again');
  });

  it('never lets an older switch go after a newer one that was submitted while it was on the wire', async () => {
    const time = new ManualTime();
    let release: ((error?: Error) => void) | undefined;
    const sent: string[] = [];
    const retry = new ReportRetry<string>({
      send: (report) => {
        sent.push(report);
        if (report === 'old')
          return new Promise<SendResult>(
            (resolve, reject) => (release = (error) => (error ? reject(error) : resolve(SENT))),
          );
        return Promise.resolve(SENT);
      },
      clock: () => time.now,
      timers: time,
    });
    const old = retry.submit('/a', 'old');
    await settle();
    const newer = retry.submit('/a', 'new');
    release?.(refused());
    assert.equal(await old, 'retry');
    assert.equal(await newer, 'delivered');
    while (time.pending.size > 0) time.fire();
    await settle();
    assert.deepEqual(sent, ['old', 'new']);
  });

  it('gives up after ten minutes, and says so', async () => {
    const time = new ManualTime();
    let sends = 0;
    const settled: string[] = [];
    const retry = new ReportRetry<string>({
      send: () => (sends++, Promise.reject(refused())),
      onSettled: (report, outcome) => settled.push(`${report}: ${outcome}`),
      clock: () => time.now,
      timers: time,
    });
    await retry.submit('/a', 'feature');
    while (time.pending.size > 0) {
      time.fire();
      await settle();
    }
    assert.ok(time.now <= REPORT_GIVE_UP_MS, `last try at ${time.now} ms`);
    assert.deepEqual(settled, ['feature: gaveUp']);
    // 2, 4, 8, 16, 32 s, then a minute apart: 14 tries in the first ten minutes.
    assert.equal(sends, 14);
  });

  it('tries again, with the same pauses, an attempt that found no connection and sent nothing', async () => {
    const time = new ManualTime();
    const answers: (Error | SendResult)[] = ['notConnected', refused(), 'notConnected', 'sent'];
    const sent: string[] = [];
    const settled: string[] = [];
    const retry = new ReportRetry<string>({
      send: (report) => {
        sent.push(report);
        const answer = answers.shift()!;
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
      },
      onSettled: (report, outcome) => settled.push(`${report}: ${outcome}`),
      clock: () => time.now,
      timers: time,
    });
    assert.equal(await retry.submit('/repo', 'feature'), 'retry');
    const waits: number[] = [];
    while (time.pending.size > 0) {
      waits.push(time.fire());
      await settle();
    }
    assert.deepEqual(waits, [2_000, 4_000, 8_000]);
    assert.deepEqual(sent, ['feature', 'feature', 'feature', 'feature']);
    assert.deepEqual(settled, ['feature: delivered']);
  });

  it('gives up on a report that never found a connection after ten minutes, and says why', async () => {
    const time = new ManualTime();
    let sends = 0;
    const settled: [string, string, Undelivered | undefined][] = [];
    const retry = new ReportRetry<string>({
      send: () => (sends++, Promise.resolve('notConnected')),
      onSettled: (report, outcome, why) => settled.push([report, outcome, why]),
      clock: () => time.now,
      timers: time,
    });
    await retry.submit('/a', 'feature');
    while (time.pending.size > 0) {
      time.fire();
      await settle();
    }
    assert.deepEqual(settled, [['feature', 'gaveUp', { kind: 'notConnected' }]]);
    assert.equal(sends, 14);
  });

  it('stops trying when disposed', async () => {
    const time = new ManualTime();
    const retry = new ReportRetry<string>({
      send: () => Promise.reject(refused()),
      clock: () => time.now,
      timers: time,
    });
    await retry.submit('/a', 'feature');
    retry.dispose();
    assert.equal(time.pending.size, 0);
  });

  describe('while signing is paused (a rejected token, a lockout)', () => {
    function paused(answers: (Error | SendResult)[] = []): {
      retry: ReportRetry<string>;
      time: ManualTime;
      sent: string[];
      settled: string[];
      setPaused: (value: boolean) => void;
    } {
      const time = new ManualTime();
      const sent: string[] = [];
      const settled: string[] = [];
      let isPaused = true;
      const retry = new ReportRetry<string>({
        send: (report) => {
          sent.push(report);
          const answer = answers.shift() ?? SENT;
          return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
        },
        onSettled: (report, outcome) => settled.push(`${report}: ${outcome}`),
        paused: () => isPaused,
        clock: () => time.now,
        timers: time,
      });
      return { retry, time, sent, settled, setPaused: (value) => (isPaused = value) };
    }

    it('sends nothing, keeps the newest switch per repository, and sends each once when the app takes requests again', async () => {
      const { retry, time, sent, settled, setPaused } = paused();
      assert.equal(await retry.submit('/a', 'one'), 'waiting');
      assert.equal(await retry.submit('/b', 'other repo'), 'waiting');
      assert.equal(await retry.submit('/a', 'two'), 'waiting');
      assert.deepEqual(sent, []);
      assert.deepEqual(settled, ['one: replaced']);
      retry.resume();
      assert.deepEqual(sent, [], 'resume does nothing while still paused');
      setPaused(false);
      retry.resume();
      await settle();
      assert.deepEqual(sent.sort(), ['other repo', 'two']);
      assert.deepEqual(settled.slice(1).sort(), ['other repo: delivered', 'two: delivered']);
      retry.resume();
      await settle();
      assert.equal(sent.length, 2, 'each once');
      assert.equal(retry.pending, 0);
      assert.equal(time.now, 0, 'no timer was waited for');
    });

    it('drops a switch that waited out its two-minute life', async () => {
      const { retry, time, sent, settled, setPaused } = paused();
      await retry.submit('/a', 'old news');
      time.now = REPORT_WAIT_LIFE_MS - 1;
      assert.equal(time.pending.size, 1);
      assert.equal(time.fire(), 1);
      assert.deepEqual(settled, ['old news: expired']);
      setPaused(false);
      retry.resume();
      await settle();
      assert.deepEqual(sent, []);
      assert.equal(retry.pending, 0);
    });

    it('holds a report refused with a 401 instead of sending it again, and one whose retry falls in the pause', async () => {
      const { retry, time, sent, settled, setPaused } = paused([new AuthenticationError('bad token'), refused()]);
      setPaused(false);
      assert.equal(await retry.submit('/a', 'rejected'), 'waiting');
      assert.equal(await retry.submit('/b', 'refused'), 'retry');
      setPaused(true);
      // The retry of the refused one comes due during the pause: it waits instead.
      assert.equal(time.fire(), 2_000);
      await settle();
      assert.deepEqual(sent, ['rejected', 'refused']);
      setPaused(false);
      retry.resume();
      await settle();
      assert.deepEqual(sent.slice(2).sort(), ['refused', 'rejected']);
      assert.deepEqual(settled.sort(), ['refused: delivered', 'rejected: delivered']);
      assert.equal(retry.pending, 0);
    });
  });
});
