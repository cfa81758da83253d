/**
 * How long a Unix socket path may be. The kernel keeps it in `sockaddr_un.sun_path` and silently
 * cuts anything longer (Node's documentation says so), so a too-long path connects to another file,
 * or to none: the client, the connect-and-close probe and the server all refuse one by this check.
 */

/** The longest socket path the OS takes, in bytes: sun_path less its terminating NUL. */
export function maxSocketPathBytes(platform: NodeJS.Platform = process.platform): number {
  // Linux has 108 bytes of sun_path; macOS and the BSDs 104.
  return platform === 'linux' ? 107 : 103;
}

/** Why `path` cannot be a socket path here, as a sentence; undefined when it fits. */
export function socketPathTooLong(path: string, platform: NodeJS.Platform = process.platform): string | undefined {
  const bytes = Buffer.byteLength(path);
  const limit = maxSocketPathBytes(platform);
  return bytes > limit
    ? `The socket path ${path} is ${bytes} bytes long, and this system takes at most ${limit}.`
    : undefined;
}
