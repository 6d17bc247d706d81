// A compiled copy of the TypeScript sources, so the CLI (the daemon above all) runs without tsx's
// loader: under tsx every process keeps a loader thread with its own V8 heap and the
// transformed sources (~25 MB of RSS on a quoting daemon) and pays for the transforms at start.
//
// The copy lives in node_modules/.cache/akira-mm/<hash of the sources>/ (src/ and strategies/,
// each .ts file transpiled by esbuild — the same transform tsx applies — with relative `.ts`
// specifiers rewritten to `.js`; other files copied). It is rebuilt when any source changes and
// built atomically (a temporary directory renamed into place), so parallel starts are safe.
// Whenever it cannot be built (no esbuild, a read-only checkout), the caller falls back to tsx.
// AKIRA_MM_TSX=1 forces tsx (a stack trace then shows TypeScript lines).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['src', 'strategies'];
const CACHE = join(ROOT, 'node_modules', '.cache', 'akira-mm');
/** Builds kept besides the current one (other checkouts' branches share nothing, but a switch back is free). */
const KEEP_BUILDS = 3;
/** `from "./x.ts"`, `import("./x.ts")`, `import "./x.ts"`: relative specifiers only. */
const RELATIVE_TS = /((?:\bfrom|\bimport)\s*\(?\s*)(["'])(\.{1,2}\/[^"'\n]+?)\.ts\2/g;

function listFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listFiles(path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

function sourceFiles() {
  return SOURCE_DIRS.flatMap((dir) => listFiles(join(ROOT, dir))).sort();
}

function hashOf(files, esbuildVersion) {
  const hash = createHash('sha256').update(`${process.version}\0${esbuildVersion}\0`);
  for (const file of files) hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

function rewriteSpecifiers(text) {
  return text.replace(RELATIVE_TS, (_match, head, quote, path) => `${head}${quote}${path}.js${quote}`);
}

async function build(files, outDir, esbuild) {
  const tsFiles = files.filter((file) => file.endsWith('.ts'));
  await esbuild.build({
    entryPoints: tsFiles,
    outdir: outDir,
    outbase: ROOT,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'silent',
  });
  for (const file of tsFiles) {
    const out = join(outDir, relative(ROOT, file)).replace(/\.ts$/, '.js');
    writeFileSync(out, rewriteSpecifiers(readFileSync(out, 'utf8')));
  }
  for (const file of files.filter((name) => !name.endsWith('.ts'))) {
    const out = join(outDir, relative(ROOT, file));
    mkdirSync(dirname(out), { recursive: true });
    const text = readFileSync(file);
    writeFileSync(out, /\.(?:m?js)$/.test(file) ? rewriteSpecifiers(text.toString('utf8')) : text);
  }
  writeFileSync(join(outDir, 'package.json'), '{ "type": "module" }\n');
}

function pruneOldBuilds(current) {
  const builds = readdirSync(CACHE, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== current)
    .map((entry) => ({ path: join(CACHE, entry.name), mtimeMs: statSync(join(CACHE, entry.name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const old of builds.slice(KEEP_BUILDS)) rmSync(old.path, { recursive: true, force: true });
}

/**
 * The file URL of the compiled `src/cli.js`, building it first when the sources changed;
 * undefined when tsx must be used instead.
 */
export async function compiledCliUrl() {
  if (process.env.AKIRA_MM_TSX === '1') return undefined;
  try {
    // esbuild comes with tsx (a dependency); resolve it from there rather than hoping it is hoisted.
    const esbuild = createRequire(createRequire(import.meta.url).resolve('tsx'))('esbuild');
    const files = sourceFiles();
    const id = hashOf(files, esbuild.version);
    const dir = join(CACHE, id);
    const entry = join(dir, 'src', 'cli.js');
    if (!existsSync(join(dir, '.complete'))) {
      mkdirSync(CACHE, { recursive: true });
      const temporary = join(CACHE, `.building-${process.pid}-${Date.now()}`);
      await build(files, temporary, esbuild);
      writeFileSync(join(temporary, '.complete'), '');
      try {
        renameSync(temporary, dir);
      } catch {
        // Another process built the same sources first: use its copy.
        rmSync(temporary, { recursive: true, force: true });
        if (!existsSync(join(dir, '.complete'))) return undefined;
      }
      pruneOldBuilds(id);
    }
    return pathToFileURL(entry).href;
  } catch {
    return undefined;
  }
}
