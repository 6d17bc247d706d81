/**
 * Reads a Prometheus text exposition as the tests check it: each family's TYPE and HELP, and its
 * samples with their labels. Strictness (a malformed line, a family declared twice, a sample
 * before its TYPE) is promtool's job (`lintExposition` in test/deploy/prometheus.ts); this only
 * lays out what it accepted.
 */

/** One sample line. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One metric family. */
export interface Family {
  readonly name: string;
  readonly type: string;
  readonly help: string;
  readonly samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
const SUFFIXES = ['_bucket', '_sum', '_count'];

/** The families of an exposition by name, in order; a family's TYPE line may appear once only. */
export function readExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const helps = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('# HELP ')) {
      const [name = '', ...help] = line.slice(7).split(' ');
      helps.set(name, help.join(' '));
    } else if (line.startsWith('# TYPE ')) {
      const [name = '', type = ''] = line.slice(7).split(' ');
      if (families.has(name)) throw new Error(`family ${name} is declared twice`);
      families.set(name, { name, type, help: helps.get(name) ?? '', samples: [] });
    } else if (line.trim() !== '' && !line.startsWith('#')) {
      const match = SAMPLE.exec(line);
      if (match === null) throw new Error(`not a sample line: ${line}`);
      const name = match[1] as string;
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map((label) => [label[1] as string, label[2] as string]));
      const family = families.get(name) ?? families.get(SUFFIXES.reduce((base, suffix) => (base.endsWith(suffix) ? base.slice(0, -suffix.length) : base), name));
      if (family === undefined) throw new Error(`sample of an undeclared family: ${line}`);
      family.samples.push({ name, labels, value: Number(match[3]) });
    }
  }
  return families;
}

/** The value of the one sample of `family` whose labels include `labels`. @throws when there is not exactly one. */
export function valueOf(families: ReadonlyMap<string, Family>, family: string, labels: Readonly<Record<string, string>> = {}): number {
  const matching = (families.get(family)?.samples ?? []).filter((sample) => sample.name === family && Object.entries(labels).every(([name, value]) => sample.labels[name] === value));
  if (matching.length !== 1) throw new Error(`${family}${JSON.stringify(labels)}: ${matching.length} samples, not 1`);
  return (matching[0] as Sample).value;
}
