import { agentHoursExhaustedMessage, messagesExhaustedMessage } from './allowance-messages';

describe('allowance messages (SPEC §4)', () => {
  it('begin with the exact words of the source and read as full sentences', () => {
    const free = {
      plan: 'free' as const,
      included: 1000,
      renewsOn: '2026-12-01',
      proIncludes: 50000,
    };
    expect(messagesExhaustedMessage(free)).toBe(
      'This organisation has used its included messages for the month (1,000 on the Free plan). ' +
        'The allowance renews on 2026-12-01 (UTC); the Pro plan includes 50,000 messages a month.',
    );
    const pro = { plan: 'pro' as const, included: 1000, renewsOn: '2027-01-01', proIncludes: 1000 };
    expect(agentHoursExhaustedMessage(pro)).toBe(
      'This organisation has used its included agent hours for the month (1,000 on the Pro plan). ' +
        'The allowance renews on 2027-01-01 (UTC).',
    );
  });
});
