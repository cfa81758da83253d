// The demo app of `npm start`: the reference server with demo data (src/server/demo.ts, the
// shipping app's minimal answers), listening as the app's VS Code integration does (a Unix socket
// and the capability file), run in npm start's own process so that its keys (./keys.mjs) drive
// it through `server.controls` as the app's own window would: PROTOCOL.md §6 has no HTTP for
// that, and a child process would need a control channel of its own. Bundled from src/server/
// into the run's folder as scripts/screenshots.mjs does (no tsc, dist/ stays the product's).
// Its token is made here and is in no environment, command line or output: only in memory and
// in the capability file, as the app keeps it.
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

/** Starts the demo app and resolves once it listens and has announced itself in `capabilityFile`. */
export async function startDemoApp({ repoRoot, runDir, socket, capabilityFile, onRequest }) {
  const outfile = join(runDir, 'demo-app.cjs');
  await esbuild.build({
    stdin: {
      contents:
        "export { createReferenceServer } from './src/server/server';\nexport { demoSnapshot } from './src/server/demo';\n",
      resolveDir: repoRoot,
      loader: 'ts',
      sourcefile: 'demo-app.ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  const { createReferenceServer, demoSnapshot } = createRequire(import.meta.url)(outfile);
  const server = createReferenceServer({
    token: newToken(),
    answers: 'minimal',
    initialState: demoSnapshot(Date.now(), randomUUID),
    ...(onRequest === undefined ? {} : { onRequest }),
  });
  const app = new DemoApp(server, { socket, capabilityFile });
  await app.listen();
  return app;
}

/** The demo app's switches, each a toggle; what each resolves to is what ./keys.mjs words. */
class DemoApp {
  #server;
  #where;
  #online = false;
  /** Whether the capability file names the token the app signs with (false after `t` once). */
  #tokenAnnounced = true;

  constructor(server, where) {
    this.#server = server;
    this.#where = where;
  }

  get online() {
    return this.#online;
  }

  /** Listens on the socket and (re)writes the capability file with the token in use. */
  async listen() {
    await this.#server.listenOnSocket(this.#where.socket, { capabilityFile: this.#where.capabilityFile });
    this.#online = true;
    this.#tokenAnnounced = true;
  }

  /** o: the app quits (socket and capability file removed, connections ended) or starts again with the state it had. */
  async toggleOnline() {
    if (this.#online) await this.close();
    else await this.listen();
    return { online: this.#online };
  }

  /** l */
  toggleLicense() {
    if (!this.#online) return { offline: true };
    const license = this.#server.controls.license === 'locked' ? 'valid' : 'locked';
    this.#server.controls.setLicense(license);
    return { license };
  }

  /** b: from the app's own state, as Start Tracking in VS Code ends a break too. */
  toggleBreak() {
    if (!this.#online) return { offline: true };
    const onBreak = !this.#server.controls.state.isOnBreak;
    this.#server.controls.setBreak(onBreak);
    return { onBreak };
  }

  /**
   * t: a new token the capability file does not name yet (VS Code's is rejected); pressed again,
   * the integration is turned off and on, which writes the file anew with the token in use.
   */
  async toggleToken() {
    if (!this.#online) return { offline: true };
    if (this.#tokenAnnounced) {
      this.#server.controls.setToken(newToken());
      this.#tokenAnnounced = false;
    } else {
      await this.#server.close();
      await this.listen();
    }
    return { tokenAnnounced: this.#tokenAnnounced };
  }

  /** Removes the capability file and the socket and ends every connection; the state stays in memory. */
  async close() {
    this.#online = false;
    await this.#server.close();
  }
}

function newToken() {
  return randomBytes(24).toString('base64url');
}
