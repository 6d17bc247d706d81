/**
 * `akira-mm --version`: the version in the project's package.json, read at run time so it cannot
 * drift from the release. The sources may run from the checkout (tsx) or from the compiled copy in
 * node_modules/.cache/akira-mm/<hash>/ (bin/compiled-sources.js, which writes a package.json of
 * its own there), so the file is found by walking up to the package.json that names akira-mm.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'akira-mm';

/**
 * The `version` of akira-mm's package.json, searched from `start` (default: this module's folder)
 * upwards.
 * @throws Error when no package.json above `start` names akira-mm with a version.
 */
export function packageVersion(start = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = readManifest(join(dir, 'package.json'));
    if (manifest?.name === PACKAGE_NAME && typeof manifest.version === 'string') return manifest.version;
    if (dirname(dir) === dir) throw new Error(`no package.json of ${PACKAGE_NAME} with a version above ${start}`);
  }
}

function readManifest(path: string): { readonly name?: unknown; readonly version?: unknown } | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // No package.json at this level: keep walking up.
    return undefined;
  }
  const parsed: unknown = JSON.parse(text);
  return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
}
