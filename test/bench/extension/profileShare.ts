/**
 * Which part of a V8 CPU profile of the extension host the extension caused:
 * a sample counts as the extension's when any frame on its stack runs in one of the extension's
 * installed bundles, that is any `dist/**.js` in its install folder (`<publisher>.<name>-<version>`),
 * not only `dist/extension.js`: the activation bundle is split into more files (transport.js and
 * what follows), and a poll's work runs in them. Pure, so that the rule is unit-tested.
 */
import type { Profiler } from 'node:inspector';

export interface ProfileShare {
  /** Sampled time that was not idle, in ms. */
  readonly busyMs: number;
  /** Samples with a frame of one of the extension's bundles anywhere on the stack: its code and what it called. */
  readonly extensionMs: number;
  readonly gcMs: number;
  /** The bundles seen on those stacks (their file names), for the report. */
  readonly bundles: readonly string[];
}

/**
 * The bundle's file name when `url` (a path or a file: URL) is one of the extension's `dist/` bundles,
 * installed under `<extensions dir>/<extensionId>-<version>/`; else undefined.
 */
export function extensionBundleOf(url: string, extensionId: string): string | undefined {
  const id = extensionId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`/${id}-\\d[^/]*/dist/(.+\\.[cm]?js)$`, 'i').exec(url.replace(/\\/g, '/'))?.[1];
}

/**
 * Sorts the profile's samples: idle, the garbage collector, and busy time with a frame of the
 * extension's bundles on the stack. Work the extension causes outside its own stacks (a later
 * status bar update sent by VS Code, garbage it leaves for the collector) is not in its share.
 */
export function profileShare(profile: Profiler.Profile, extensionId: string): ProfileShare {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const bundles = new Set<string>();
  const ours = new Map<number, boolean>();
  const isOurs = (id: number): boolean => {
    const known = ours.get(id);
    if (known !== undefined) return known;
    const bundle = extensionBundleOf(nodes.get(id)?.callFrame.url ?? '', extensionId);
    if (bundle !== undefined) bundles.add(bundle);
    const parent = parents.get(id);
    const answer = bundle !== undefined || (parent !== undefined && isOurs(parent));
    ours.set(id, answer);
    return answer;
  };
  let busyMs = 0;
  let extensionMs = 0;
  let gcMs = 0;
  (profile.samples ?? []).forEach((id, index) => {
    const ms = (profile.timeDeltas?.[index] ?? 0) / 1000;
    const name = nodes.get(id)?.callFrame.functionName;
    if (name === '(idle)') return;
    busyMs += ms;
    if (name === '(garbage collector)') gcMs += ms;
    if (isOurs(id)) extensionMs += ms;
  });
  return { busyMs, extensionMs, gcMs, bundles: [...bundles].sort() };
}
