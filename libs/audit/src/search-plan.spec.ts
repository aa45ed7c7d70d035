import {
  chooseSearchPlan,
  INDEX_MATCHES,
  SearchCosts,
  walkOn,
  WALK_WINDOW_MAX,
  WALK_WINDOW_MIN,
} from './search-plan';

const TOTAL = 1_000_000;

describe('chooseSearchPlan', () => {
  it('uses the index when a word is rare, however common the others', () => {
    expect(chooseSearchPlan([10, 900_000], TOTAL, 51)).toEqual({ kind: 'index' });
    expect(chooseSearchPlan([INDEX_MATCHES], TOTAL, 51)).toEqual({ kind: 'index' });
    expect(chooseSearchPlan([INDEX_MATCHES + 1], TOTAL, 51)).not.toEqual({ kind: 'index' });
  });

  it('walks a short window first when common words would rarely meet if independent', () => {
    // 5 % × 5 % × 30 % of a million: about 750 entries hold all three — unless they go together.
    expect(chooseSearchPlan([50_000, 50_000, 300_000], TOTAL, 51)).toEqual({
      kind: 'walk',
      window: WALK_WINDOW_MIN,
    });
    // A full name: two words in 4 % of entries each, always together.
    expect(chooseSearchPlan([40_000, 40_000], TOTAL, 51)).toEqual({
      kind: 'walk',
      window: WALK_WINDOW_MIN,
    });
  });

  it('walks one word as far as walking stays cheaper than the index', () => {
    expect(chooseSearchPlan([100_000], TOTAL, 51)).toEqual({ kind: 'walk', window: 500_000 });
    expect(chooseSearchPlan([INDEX_MATCHES + 1], TOTAL, 51)).toEqual({
      kind: 'walk',
      window: 15_005,
    });
  });

  it('walks several dense words with a window sized to find a page four times over', () => {
    // 40 % × 30 %: 204 / 0.12 = 1,700 entries, raised to the minimum.
    expect(chooseSearchPlan([400_000, 300_000], TOTAL, 51)).toEqual({
      kind: 'walk',
      window: WALK_WINDOW_MIN,
    });
    // 30 % × 10 %: 204 / 0.03 = 6,800 entries.
    expect(chooseSearchPlan([300_000, 100_000], TOTAL, 51)).toEqual({ kind: 'walk', window: 6800 });
    expect(chooseSearchPlan([100_000, 60_000], TOTAL, 51)).toEqual({
      kind: 'walk',
      window: WALK_WINDOW_MAX,
    });
  });

  it('walks the longest window when no word could be counted; a counted rare word still wins', () => {
    expect(chooseSearchPlan([null], TOTAL, 51)).toEqual({ kind: 'walk', window: WALK_WINDOW_MAX });
    expect(chooseSearchPlan([null, 20], TOTAL, 51)).toEqual({ kind: 'index' });
    expect(chooseSearchPlan([null, 300_000], TOTAL, 51)).toEqual({
      kind: 'walk',
      window: WALK_WINDOW_MIN,
    });
  });

  it('uses the index for an organisation with no entries', () => {
    expect(chooseSearchPlan([5], 0, 51)).toEqual({ kind: 'index' });
  });
});

describe('walkOn', () => {
  it('walks on when the matches found so far promise a page sooner than the index would answer', () => {
    // Words together in 1 % of a million entries: 20 in 2,000 read; 31 more need about 3,100.
    expect(walkOn(20, 2000, 51, TOTAL)).toBe(true);
  });

  it('goes to the index when matches are scarce, or none were found', () => {
    // 0.15 %: 3 in 2,000; 48 more need about 32,000 entries, the index about 1,500 matches.
    expect(walkOn(3, 2000, 51, TOTAL)).toBe(false);
    expect(walkOn(0, 2000, 51, TOTAL)).toBe(false);
  });
});

describe('search costs of another table', () => {
  const costs: SearchCosts = {
    indexMatches: 300,
    walkEntriesPerIndexMatch: 15,
    windowMin: 2000,
    windowMax: 20000,
  };

  it('moves the switch between the plans with the costs given', () => {
    expect(chooseSearchPlan([300], 100_000, 51, costs)).toEqual({ kind: 'index' });
    expect(chooseSearchPlan([301], 100_000, 51, costs)).toEqual({ kind: 'walk', window: 4515 });
    expect(chooseSearchPlan([12_000, 12_000, 12_000], 100_000, 51, costs)).toEqual({
      kind: 'walk',
      window: 2000,
    });
    expect(chooseSearchPlan([12_000, 12_000], 100_000, 51, costs)).toEqual({
      kind: 'walk',
      window: 14167,
    });
    expect(walkOn(10, 2000, 51, 100_000, costs)).toBe(false);
    expect(walkOn(40, 2000, 51, 100_000, costs)).toBe(true);
  });
});
