import * as vscode from 'vscode';

const SECRET_KEY = 'timeTracker.token';

export type TokenSource = 'secretStorage' | 'environment';

/**
 * The token lives in VS Code's SecretStorage (the OS keychain where there is one); when none is
 * stored, SERVICE_TOKEN from the environment is used, as the application's own SDKs do.
 */
export class TokenStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly environment: Readonly<Record<string, string | undefined>> = process.env,
  ) {
    // Another window storing or clearing the token fires this too.
    this.subscription = secrets.onDidChange((event) => {
      if (event.key === SECRET_KEY) this.changed.fire();
    });
  }

  async get(): Promise<{ token: string; source: TokenSource } | undefined> {
    const stored = await this.secrets.get(SECRET_KEY);
    if (stored) return { token: stored, source: 'secretStorage' };
    const fromEnvironment = this.environment['SERVICE_TOKEN'];
    return fromEnvironment ? { token: fromEnvironment, source: 'environment' } : undefined;
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
