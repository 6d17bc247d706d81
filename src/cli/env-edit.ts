/**
 * Setting keys in a pair file's text while keeping everything else as the user wrote it (order,
 * comments, blank lines): `akira-mm fit --write` writes its ALPHA_* weights this way. A key set
 * on a line (`KEY=…`, `export KEY=…`, commented-out `# KEY=…` templates left alone) has that line
 * replaced; a key not set is appended, after a comment naming where the values came from.
 */

/** `KEY=` at the start of a line, optionally after `export ` (dotenv's two forms). */
function assignsKey(line: string, key: string): boolean {
  const trimmed = line.trimStart();
  const body = trimmed.startsWith('export ') ? trimmed.slice('export '.length).trimStart() : trimmed;
  return body.startsWith(`${key}=`) || body.startsWith(`${key} =`);
}

/**
 * `text` with each of `entries` set. Keys already assigned are replaced in place (every line
 * that assigns one: dotenv keeps the last, so all agree); the others are appended under
 * `comment` (a line starting `# `), which replaces an earlier copy of itself (same first
 * `marker` characters) rather than piling up.
 */
export function setEnvKeys(text: string, entries: readonly (readonly [string, string])[], comment: string, marker: string): string {
  const lines = text.length === 0 ? [] : text.replace(/\n$/, '').split('\n');
  const missing = new Set(entries.map(([key]) => key));
  const out: string[] = [];
  let firstIndex = -1;
  for (const line of lines) {
    if (line.startsWith(marker)) continue;
    const entry = entries.find(([key]) => assignsKey(line, key));
    if (entry === undefined) {
      out.push(line);
      continue;
    }
    if (firstIndex < 0) firstIndex = out.length;
    out.push(`${entry[0]}=${entry[1]}`);
    missing.delete(entry[0]);
  }
  // The comment goes just above the first key it explains, or at the end with the appended keys.
  const appended = entries.filter(([key]) => missing.has(key)).map(([key, value]) => `${key}=${value}`);
  if (firstIndex >= 0) out.splice(firstIndex, 0, comment);
  else out.push(comment);
  out.push(...appended);
  return `${out.join('\n')}\n`;
}
