/**
 * The extension's log channel, with every entry kept on one line. Log lines quote
 * text from outside: the app's error words, the capability file's values and socket path, branch
 * names, paths. A line break in it would start a line a reader takes for an entry of its own, with
 * a time and a level the extension never wrote; a bidi override would make an entry read in
 * another order than it was written. Every part writes through this one channel, so escaping here
 * (with src/platform/outsideText.ts) covers every call site, those still to come included, and no
 * call site has to remember it. The token is never logged.
 */
import type * as vscode from 'vscode';
import { logLineText } from '../platform/outsideText';

/** What the parts do with the log: write a line at a level, and show it (Show Log). */
export interface Log {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  show(): void;
}

export class OneLineLogChannel implements Log, vscode.Disposable {
  constructor(private readonly channel: vscode.LogOutputChannel) {}

  debug(message: string): void {
    this.channel.debug(logLineText(message));
  }

  info(message: string): void {
    this.channel.info(logLineText(message));
  }

  warn(message: string): void {
    this.channel.warn(logLineText(message));
  }

  error(message: string): void {
    this.channel.error(logLineText(message));
  }

  show(): void {
    this.channel.show();
  }

  dispose(): void {
    this.channel.dispose();
  }
}
