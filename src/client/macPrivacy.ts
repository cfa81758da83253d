/**
 * macOS (14 and later) asks the user before a program that is not sandboxed, such as VS Code,
 * reads another app's sandbox container; macOS 15 extends it to app group containers. The app's
 * capability file and socket are in its container, so a user who declined gets EPERM there: a
 * privacy setting decided, not the file's owner or mode, and reading again changes nothing until
 * the user allows it.
 */

/** Whether an error with `code` at `path` is the Mac's privacy consent saying no. */
export function deniedByMacPrivacy(
  path: string,
  code: string | undefined,
  platform: NodeJS.Platform = process.platform,
): boolean {
  return platform === 'darwin' && code === 'EPERM' && /\/Library\/(Group )?Containers\//.test(path);
}

/**
 * What such a refusal says, for the log and the client's errors, about `target` (the file or the
 * socket, or "it" after a sentence that named it).
 */
export function macPrivacyDenial(target: string): string {
  return (
    `macOS did not let VS Code open ${target}: reading another app's data needs your consent, which was declined ` +
    "(allow it in System Settings › Privacy & Security, or use the app's HTTP API)."
  );
}
