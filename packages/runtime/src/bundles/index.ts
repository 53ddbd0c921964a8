// Plugin bundles: a plugin's files as one immutable, content-addressed unit (digest.ts), built
// from a folder (folder.ts), packed to and unpacked from one archive (archive.ts), kept once in
// the store (stored.ts), and written under the home by digest for processes to load (cache.ts);
// what each declares is kept in the store once read (declarations.ts).

export { packBundle, type UnpackOptions, unpackBundle } from "./archive.js";
export { BundleCache, bundlesRoot } from "./cache.js";
export { keptDeclarations, OZ0_BUILD } from "./declarations.js";
export {
  BUNDLE_LIMITS,
  type BundleFile,
  type BundleLimits,
  DIGEST_PATTERN,
  makeBundle,
  type PluginBundle,
} from "./digest.js";
export { bundleFolder, EXCLUDED, type PackedFolder, packFolder } from "./folder.js";
export { type PackedBundle, packed, readBundle, saveBundle } from "./stored.js";
