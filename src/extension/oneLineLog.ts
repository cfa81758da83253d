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
import { errorMessage } from '../platform/errors';
import { logLineText } from '../platform/outsideText';

export class OneLineLogChannel implements vscode.LogOutputChannel {
  constructor(private readonly channel: vscode.LogOutputChannel) {}

  get name(): string {
    return this.channel.name;
  }

  get logLevel(): vscode.LogLevel {
    return this.channel.logLevel;
  }

  get onDidChangeLogLevel(): vscode.Event<vscode.LogLevel> {
    return this.channel.onDidChangeLogLevel;
  }

  trace(message: string, ...args: unknown[]): void {
    this.channel.trace(logLineText(message), ...oneLineEach(args));
  }

  debug(message: string, ...args: unknown[]): void {
    this.channel.debug(logLineText(message), ...oneLineEach(args));
  }

  info(message: string, ...args: unknown[]): void {
    this.channel.info(logLineText(message), ...oneLineEach(args));
  }

  warn(message: string, ...args: unknown[]): void {
    this.channel.warn(logLineText(message), ...oneLineEach(args));
  }

  /** An Error is logged as its message: its stack would be lines of their own. */
  error(error: string | Error, ...args: unknown[]): void {
    this.channel.error(logLineText(typeof error === 'string' ? error : errorMessage(error)), ...oneLineEach(args));
  }

  append(value: string): void {
    this.channel.append(logLineText(value));
  }

  appendLine(value: string): void {
    this.channel.appendLine(logLineText(value));
  }

  replace(value: string): void {
    this.channel.replace(logLineText(value));
  }

  clear(): void {
    this.channel.clear();
  }

  show(preserveFocus?: boolean): void;
  /** @deprecated As VS Code's own: the column is ignored. */
  show(column?: vscode.ViewColumn, preserveFocus?: boolean): void;
  show(columnOrPreserveFocus?: vscode.ViewColumn | boolean, preserveFocus?: boolean): void {
    // VS Code ignores the old overload's column: only whether to keep the focus is passed on.
    this.channel.show(typeof columnOrPreserveFocus === 'boolean' ? columnOrPreserveFocus : preserveFocus);
  }

  hide(): void {
    this.channel.hide();
  }

  dispose(): void {
    this.channel.dispose();
  }
}

/** Text arguments are escaped as the message is; others VS Code writes as JSON, which escapes line breaks itself. */
function oneLineEach(args: readonly unknown[]): unknown[] {
  return args.map((arg) => (typeof arg === 'string' ? logLineText(arg) : arg));
}
