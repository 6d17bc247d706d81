import { describe, expect, it } from 'vitest';
import { setEnvKeys } from '../../src/cli/env-edit.ts';

const MARKER = '# from the fit';

describe('setting keys in a pair file', () => {
  it('replaces a key where it is set and keeps every other line, comment and blank line as written', () => {
    const text = ['# my pair', 'STRATEGY=ladder', '', 'ALPHA_OBI_BPS=0.1', '# ALPHA_OFI_BPS=9 (a template, left alone)', 'BASE=ETH', ''].join('\n');
    const out = setEnvKeys(text, [['ALPHA_OBI_BPS', '0.7']], `${MARKER}: R² 0.1`, MARKER);
    expect(out).toBe(['# my pair', 'STRATEGY=ladder', '', '# from the fit: R² 0.1', 'ALPHA_OBI_BPS=0.7', '# ALPHA_OFI_BPS=9 (a template, left alone)', 'BASE=ETH', ''].join('\n'));
  });

  it('appends keys not set yet under the comment, and replaces an earlier comment of its own instead of piling up', () => {
    const first = setEnvKeys('STRATEGY=ladder\n', [['ALPHA_OBI_BPS', '0.7'], ['ALPHA_OFI_BPS', '0']], `${MARKER}: one`, MARKER);
    expect(first).toBe('STRATEGY=ladder\n# from the fit: one\nALPHA_OBI_BPS=0.7\nALPHA_OFI_BPS=0\n');
    const second = setEnvKeys(first, [['ALPHA_OBI_BPS', '0.5'], ['ALPHA_OFI_BPS', '0.01']], `${MARKER}: two`, MARKER);
    expect(second).toBe('STRATEGY=ladder\n# from the fit: two\nALPHA_OBI_BPS=0.5\nALPHA_OFI_BPS=0.01\n');
  });

  it('replaces every line that sets the key, `export` form included, so the file holds one value', () => {
    const out = setEnvKeys('export ALPHA_OBI_BPS=1\nALPHA_OBI_BPS=2\n', [['ALPHA_OBI_BPS', '3']], MARKER, MARKER);
    expect(out).toBe(`${MARKER}\nALPHA_OBI_BPS=3\nALPHA_OBI_BPS=3\n`);
  });
});
