// The harness's own code-server asks for its password: while a suite runs, another local user or a
// web page rebinding a host name to 127.0.0.1 must get code-server's login page, not a workbench
// with a terminal in the developer's name. Asked without the session cookie, `/` and the
// workbench's URL answer a redirect to the login; with the cookie the browser's login left
// (../host/common.mjs, logIn) the workbench; with a made-up one the login again. The cookie is
// never printed: it opens code-server as the password does.
import { SESSION_COOKIE } from '../host/common.mjs';

/** Resolves to a line for the report, or throws what answered instead. */
export async function loginCheck({ page, authority, folder }) {
  const paths = ['/', `/?folder=${encodeURIComponent(folder)}`];
  const session = (await page.context().cookies(`http://${authority}/`)).find(({ name }) => name === SESSION_COOKIE);
  for (const path of paths) {
    const bare = await ask(authority, path);
    if (bare.status !== 302 || !/^\.\/login(?:\?|$)/.test(bare.location)) {
      throw new Error(
        `${path} without the password answered ${bare.status}${bare.location === undefined ? '' : ` to ${bare.location}`}${workbenchIn(bare)}, not a redirect to ./login`,
      );
    }
    const madeUp = await ask(authority, path, `${SESSION_COOKIE}=${'0'.repeat(64)}`);
    if (madeUp.status !== 302)
      throw new Error(
        `${path} with a made-up session cookie answered ${madeUp.status}${workbenchIn(madeUp)}, not a redirect to ./login`,
      );
  }
  if (session === undefined) throw new Error(`the browser holds no ${SESSION_COOKIE} cookie for ${authority}`);
  for (const path of paths) {
    const inside = await ask(authority, path, `${SESSION_COOKIE}=${session.value}`);
    if (inside.status !== 200 || workbenchIn(inside) === '')
      throw new Error(
        `${path} with the browser's session cookie answered ${inside.status}${workbenchIn(inside)}, not the workbench`,
      );
  }
  return `${paths.length} URLs: without the password or with a made-up cookie 302 to ./login; with the browser's session cookie 200 and the workbench`;
}

async function ask(authority, path, cookie) {
  const response = await fetch(`http://${authority}${path}`, {
    redirect: 'manual',
    headers: cookie === undefined ? {} : { cookie },
    signal: AbortSignal.timeout(10_000),
  });
  const body = await response.text();
  return { status: response.status, location: response.headers.get('location') ?? undefined, body };
}

/** code-server's workbench page loads workbench.js; its login page does not. */
function workbenchIn({ body }) {
  return /workbench\.js/.test(body) ? ' (the workbench)' : '';
}
