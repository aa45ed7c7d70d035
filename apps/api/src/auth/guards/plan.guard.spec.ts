import { guardContext } from '../testing/guard-context';
import { keyPrincipal, memberPrincipal } from '../testing/principals';
import { PlanGuard } from './plan.guard';

const key = (plan: 'free' | 'pro') => keyPrincipal({ plan });

describe('PlanGuard', () => {
  it('answers 402 PLAN_REQUIRED to a Free organisation on a Pro route', () => {
    const { context, reflector } = guardContext(
      { principal: 'api_key', plan: 'pro' },
      { principal: key('free') },
    );
    expect(() => new PlanGuard(reflector).canActivate(context)).toThrow(
      expect.objectContaining({
        code: 'PLAN_REQUIRED',
        message: 'The audit log API requires the Pro plan.',
      }),
    );
  });

  it('admits a Pro organisation on a Pro route', () => {
    const { context, reflector } = guardContext(
      { principal: 'api_key', plan: 'pro' },
      { principal: key('pro') },
    );
    expect(new PlanGuard(reflector).canActivate(context)).toBe(true);
  });

  it('does not look at plans on routes that require none', () => {
    const { context, reflector } = guardContext(
      { principal: 'api_key' },
      { principal: key('free') },
    );
    expect(new PlanGuard(reflector).canActivate(context)).toBe(true);
  });

  it('refuses a plan route reached without a key principal', () => {
    const { context, reflector } = guardContext({ principal: 'api_key', plan: 'pro' });
    expect(new PlanGuard(reflector).canActivate(context)).toBe(false);
  });

  describe('on a read shared by keys and members', () => {
    const shared = {
      principal: 'api_key_or_member',
      permission: 'auditLog.read',
      plan: 'pro',
    } as const;

    it('holds a key to the plan', () => {
      const { context, reflector } = guardContext(shared, { principal: key('free') });
      expect(() => new PlanGuard(reflector).canActivate(context)).toThrow(
        expect.objectContaining({ code: 'PLAN_REQUIRED' }),
      );
      const pro = guardContext(shared, { principal: key('pro') });
      expect(new PlanGuard(pro.reflector).canActivate(pro.context)).toBe(true);
    });

    it('admits a member on any plan', () => {
      const member = memberPrincipal();
      const { context, reflector } = guardContext(shared, { principal: member });
      expect(new PlanGuard(reflector).canActivate(context)).toBe(true);
    });

    it('refuses a caller that is neither', () => {
      const { context, reflector } = guardContext(shared);
      expect(new PlanGuard(reflector).canActivate(context)).toBe(false);
    });
  });
});
