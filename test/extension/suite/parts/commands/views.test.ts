/**
 * Show Menu (src/extension/commands/views.ts) and Show Log (the command table's) through their
 * services: a real session over a fake secret store against the reference server, the queue and
 * the links as the small parts the menu reads (how many entries wait, no Undo), a recording log,
 * and the menu answered as a user closing it would (../../menuAnswers.ts): what the status bar
 * item's menu offers in a state, and that Show Log shows the log.
 */
import * as assert from 'node:assert/strict';
import type { CommandServices } from '../../../../../src/extension/commands/services';
import { commandTable } from '../../../../../src/extension/commands';
import { COMMANDS } from '../../../../../src/tracker/ids';
import { showMenu } from '../../../../../src/extension/commands/views';
import type { LinkController } from '../../../../../src/extension/links/linkController';
import type { OfflineQueue } from '../../../../../src/extension/offlineQueue';
import { commandsOf, withMenuChoice } from '../../menuAnswers';
import { FakeMemento } from '../fakes';
import { commandFakes, useReferenceApp, type CommandFakes } from '../sessionFakes';

const TOKEN = 'views-part-token-7c2b';

describe('parts: commands/views (Show Menu, Show Log)', function () {
  this.timeout(20_000);
  const app = useReferenceApp({ token: TOKEN });
  let fakes: CommandFakes | undefined;

  const started = async (token: string | undefined, waiting: number): Promise<CommandFakes> => {
    const queue: Pick<OfflineQueue, 'waiting'> = { waiting };
    const links: Pick<LinkController, 'undo'> = { undo: undefined };
    fakes = commandFakes(app, token, () => ({ queue: queue as OfflineQueue, links: links as LinkController }));
    await fakes.session.reconnect();
    return fakes;
  };
  const menuOf = (services: CommandServices) => withMenuChoice(undefined, () => showMenu(services));

  afterEach(() => {
    fakes?.dispose();
    fakes = undefined;
  });

  it('without a token, offers Set Token first, under how to connect', async () => {
    const { services } = await started(undefined, 0);

    const menu = await menuOf(services);

    assert.equal(menu.placeholder, 'Choose how to connect to the app');
    assert.equal(commandsOf(menu)[0], 'setToken', JSON.stringify(menu.entries));
  });

  it('offers the queued entries only while some wait', async () => {
    const { services } = await started(TOKEN, 2);
    assert.equal(services.session.state.kind, 'idle');

    const withQueue = commandsOf(await menuOf(services));
    (services.queue as { waiting: number }).waiting = 0;
    const without = commandsOf(await menuOf(services));

    assert.ok(withQueue.includes('showQueue'), withQueue.join(', '));
    assert.ok(!without.includes('showQueue'), without.join(', '));
    assert.ok(withQueue.includes('log') && withQueue.includes('checkConnection'), withQueue.join(', '));
  });

  it('Show Log shows the log channel', async () => {
    const { services, log } = await started(TOKEN, 0);

    const table = commandTable({ ...services, workspaceState: new FakeMemento() });
    await table.handlers[COMMANDS.showLog]();
    table.disposable.dispose();

    assert.equal(log.shown, 1);
  });
});
