import * as vscode from 'vscode';
import { STORAGE_KEYS } from '../tracker/ids';

/**
 * The HTTP API's token in VS Code's SecretStorage (the OS keychain where there is one). Only the
 * session reads it; the environment fallback and the integration's token are the session's too.
 */
export class TokenStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    // Another window storing or clearing the token fires this too.
    this.subscription = secrets.onDidChange((event) => {
      if (event.key === STORAGE_KEYS.token) this.changed.fire();
    });
  }

  /** The stored token; an empty one counts as none. */
  async get(): Promise<string | undefined> {
    return (await this.secrets.get(STORAGE_KEYS.token)) || undefined;
  }

  async set(token: string): Promise<void> {
    await this.secrets.store(STORAGE_KEYS.token, token);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(STORAGE_KEYS.token);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
