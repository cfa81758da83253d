import * as vscode from 'vscode';

const SECRET_KEY = 'timeTracker.token';

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
      if (event.key === SECRET_KEY) this.changed.fire();
    });
  }

  /** The stored token; an empty one counts as none. */
  async get(): Promise<string | undefined> {
    return (await this.secrets.get(SECRET_KEY)) || undefined;
  }

  async set(token: string): Promise<void> {
    await this.secrets.store(SECRET_KEY, token);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(SECRET_KEY);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
