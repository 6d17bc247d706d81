import { parse, traverse, type MemberNode } from '@humanwhocodes/momoa';

/**
 * Every key that one object of a JSON text holds twice (`pair`, or `err.type` inside a nested
 * object). JSON.parse cannot tell: it silently keeps the last value. momoa (ESLint's JSON parser)
 * keeps every member, so each object's names are counted as written.
 * @throws SyntaxError when the text is not JSON.
 */
export function duplicateKeys(text: string): string[] {
  const repeated: string[] = [];
  const paths = new Map<object, string>();
  traverse(parse(text, { mode: 'json' }), {
    enter(node, parent) {
      const parentPath = parent === undefined ? '' : (paths.get(parent) ?? '');
      const path = node.type === 'Member' ? `${parentPath}${parentPath === '' ? '' : '.'}${nameOf(node as MemberNode)}` : parentPath;
      paths.set(node, path);
      if (node.type !== 'Object') return;
      const seen = new Set<string>();
      for (const member of (node as unknown as { members: MemberNode[] }).members) {
        const name = nameOf(member);
        if (seen.has(name)) repeated.push(`${path}${path === '' ? '' : '.'}${name}`);
        seen.add(name);
      }
    },
  });
  return repeated;
}

function nameOf(member: MemberNode): string {
  return member.name.type === 'String' ? member.name.value : member.name.name;
}
