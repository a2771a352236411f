import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { catalogue } from '../../domain';

const readme = readFileSync(new URL('../../domain/README.md', import.meta.url), 'utf8');

test('sandbox/domain/README.md documents every carrier, delivery type, extra service and magic value', () => {
  for (const c of catalogue.carriers) {
    expect(readme).toContain(`\`${c.code}\` | ${c.name}`);
    for (const t of c.deliveryTypes) expect(readme).toContain(`\`${t.code}\``);
    for (const s of c.extraServices) expect(readme).toContain(`\`${s.code}\``);
  }
  for (const v of ['REJECT', '00000', 'BOX-9999', 'RETURN']) expect(readme).toContain(v);
});
