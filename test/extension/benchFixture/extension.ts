/**
 * The yardstick of `npm run bench -- bundle` (test/bench/bundleBench.ts): a small extension with no dependency, bundled
 * as esbuild.mjs bundles ours (production, CommonJS, `vscode` external). It does in small what an editor's time tracker
 * does at activation (a status bar item, a command, a poll timer started after activate returns), so the bench can set
 * our activation bundle's size and `require` time beside what such an extension costs, measured in the same run. It
 * never ships and never runs in an editor.
 */
import * as vscode from 'vscode';

const POLL_MS = 10_000;

interface Shown {
  readonly text: string;
  readonly tooltip: string;
}

function present(running: string | undefined, since: number, now: number): Shown {
  if (running === undefined) return { text: '$(clock) Not tracking', tooltip: 'Click to start tracking.' };
  const minutes = Math.floor((now - since) / 60_000);
  return {
    text: `$(watch) ${running} ${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`,
    tooltip: `Tracking ${running}.`,
  };
}

export function activate(context: vscode.ExtensionContext): void {
  const item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 100);
  let running: string | undefined;
  let since = Date.now();
  const render = (): void => {
    const shown = present(running, since, Date.now());
    item.text = shown.text;
    item.tooltip = shown.tooltip;
  };
  item.command = 'fixture.toggle';
  render();
  item.show();
  const timer = setInterval(render, POLL_MS);
  context.subscriptions.push(
    item,
    { dispose: () => clearInterval(timer) },
    vscode.commands.registerCommand('fixture.toggle', async () => {
      running = running === undefined ? await vscode.window.showInputBox({ prompt: 'What are you doing?' }) : undefined;
      since = Date.now();
      render();
    }),
  );
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
