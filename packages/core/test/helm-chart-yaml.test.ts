/**
 * Chart.yaml's lists of structs (maintainers, dependencies) read as Go's decoder reads them: absent or null is
 * none, a null item is skipped, anything else is the decoder's error, item by item in order.
 */
import { describe, expect, it } from 'vitest';
import { parseChartYaml } from '../src/packages/helm.js';

const chart = (extra: string) => `apiVersion: v2\nname: demo\nversion: 1.0.0\n${extra}`;
const refusal = (text: string) => {
  try {
    parseChartYaml(text);
    return 'accepted';
  } catch (error) {
    return `${(error as Error).name} ${(error as Error).message}`;
  }
};

describe('parseChartYaml lists', () => {
  it('absent, null and null items are none; mappings are read', () => {
    expect(parseChartYaml(chart('maintainers: null\ndependencies:\n')).maintainers).toBeUndefined();
    const parsed = parseChartYaml(chart('maintainers:\n  - null\n  - name: a\n    email: a@b.c\ndependencies:\n  - ~\n  - name: d\n    repository: r\n    import-values: [x]\n')) as unknown as Record<string, unknown>;
    expect(parsed.maintainers).toEqual([{ name: 'a', email: 'a@b.c' }]);
    expect(parsed.dependencies).toEqual([{ name: 'd', repository: 'r', import_values: ['x'] }]);
  });

  it('refuses what Go cannot decode, the first problem in document order', () => {
    expect(refusal(chart('maintainers: x\n'))).toBe('BadRequestError yaml: unmarshal errors: cannot unmarshal into []*Maintainer (field maintainers)');
    expect(refusal(chart('maintainers:\n  - x\n'))).toBe('BadRequestError yaml: unmarshal errors: cannot unmarshal into struct (field maintainers)');
    expect(refusal(chart('maintainers:\n  - name: [a]\n  - x\n'))).toBe('BadRequestError yaml: unmarshal errors: cannot unmarshal into string (field name)');
    expect(refusal(chart('dependencies: {a: 1}\n'))).toBe('BadRequestError yaml: unmarshal errors: cannot unmarshal into []*Dependency (field dependencies)');
    expect(refusal(chart('dependencies:\n  - name: d\n    import-values: x\n  - x\n'))).toBe('BadRequestError yaml: unmarshal errors: cannot unmarshal into []interface {} (field import-values)');
  });
});
