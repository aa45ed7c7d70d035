import { type Decider, readDecider, storeDecider } from './deciders';

describe('deciders', () => {
  it('stores each decider in its columns and reads it back in the wire order (type first)', () => {
    const deciders: Decider[] = [
      { type: 'member', id: 'u-1', name: 'Ada' },
      { type: 'argus', ruleId: 'r-1', name: 'argus' },
      { type: 'system', reason: 'timeout', name: 'system' },
    ];
    for (const decider of deciders) {
      const read = readDecider(storeDecider(decider));
      expect(JSON.stringify(read)).toBe(JSON.stringify(decider));
    }
    expect(storeDecider({ type: 'argus', ruleId: 'r-1', name: 'argus' })).toEqual({
      decidedByType: 'argus',
      decidedById: null,
      decidedByName: 'argus',
      decidedByRuleId: 'r-1',
      decidedByReason: null,
    });
  });
});
