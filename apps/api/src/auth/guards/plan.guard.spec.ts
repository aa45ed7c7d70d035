import type { ApiKeyPrincipal } from '../principal';
import { guardContext } from '../testing/guard-context';
import { PlanGuard } from './plan.guard';

const key = (plan: 'free' | 'pro'): ApiKeyPrincipal => ({
  kind: 'api_key',
  organisationId: 'o',
  plan,
  apiKeyId: 'k',
  apiKeyName: 'n',
});

describe('PlanGuard', () => {
  it('answers 402 PLAN_REQUIRED to a Free organisation on a Pro route', () => {
    const { context, reflector } = guardContext({ principal: 'api_key', plan: 'pro' }, { principal: key('free') });
    expect(() => new PlanGuard(reflector).canActivate(context)).toThrow(
      expect.objectContaining({ code: 'PLAN_REQUIRED', message: 'The audit log API requires the Pro plan.' }),
    );
  });

  it('admits a Pro organisation on a Pro route', () => {
    const { context, reflector } = guardContext({ principal: 'api_key', plan: 'pro' }, { principal: key('pro') });
    expect(new PlanGuard(reflector).canActivate(context)).toBe(true);
  });

  it('does not look at plans on routes that require none', () => {
    const { context, reflector } = guardContext({ principal: 'api_key' }, { principal: key('free') });
    expect(new PlanGuard(reflector).canActivate(context)).toBe(true);
  });

  it('refuses a plan route reached without a key principal', () => {
    const { context, reflector } = guardContext({ principal: 'api_key', plan: 'pro' });
    expect(new PlanGuard(reflector).canActivate(context)).toBe(false);
  });
});
