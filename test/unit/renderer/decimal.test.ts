import { describe, expect, it } from 'vitest';
import { formatAmount, formatQuantity } from '../../../renderer/src/format/decimal';

// Spec "Common conventions": amounts and weights are decimal text; the worker sees the UI's separators.
describe('amounts and weights as the worker reads them', () => {
  it('shows money with two decimals and the language grouping', () => {
    expect(formatAmount('4200.5', 'cs')).toBe('4\u00a0200,50');
    expect(formatAmount('4200.5', 'en')).toBe('4,200.50');
    expect(formatAmount('650', 'cs')).toBe('650,00');
    expect(formatAmount('0.125', 'en')).toBe('0.125');
    expect(formatAmount('-1234567.1', 'en')).toBe('−1,234,567.10');
  });

  it('keeps exact digits a float would lose', () => {
    expect(formatAmount('90071992547409931.01', 'en')).toBe('90,071,992,547,409,931.01');
  });

  it('reads decimal-comma input and shows weights without padding', () => {
    expect(formatQuantity('2,5', 'en')).toBe('2.5');
    expect(formatQuantity('2.5', 'cs')).toBe('2,5');
    expect(formatQuantity('12', 'cs')).toBe('12');
  });

  it('reads a value the way the core does (shared/decimal.ts): ".5" and "-0007.10"', () => {
    expect(formatAmount('.5', 'cs')).toBe('0,50');
    expect(formatAmount('-0007.10', 'en')).toBe('−7.10');
  });
});
