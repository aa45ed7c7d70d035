import {
  deadlineWarningAt,
  dueEscalationStep,
  escalationPosition,
  type EscalationStep,
} from './deadlines';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 27, 9, 0) + minutes * 60_000);
const opened = {
  createdAt: at(0),
  assigneeTeamId: null,
  assigneeChangedAt: null,
  step: 0,
  policyTeamId: null,
  clockAt: null,
};
const step = (afterMinutes: number): EscalationStep => ({
  afterMinutes,
  action: 'remind',
  when: 'undecided',
  assignTo: null,
});

describe('escalationPosition (SPEC §8e)', () => {
  it("the organisation's policy counts from when the interrupt opened, and keeps counting through member assignments", () => {
    expect(escalationPosition(opened, false)).toEqual({ teamId: null, step: 0, clock: at(0) });
    expect(escalationPosition({ ...opened, step: 2, assigneeChangedAt: at(30) }, false)).toEqual({
      teamId: null,
      step: 2,
      clock: at(0),
    });
  });

  it("a team's policy counts from when the team got the interrupt (or from the start, when it opened assigned)", () => {
    const assigned = { ...opened, assigneeTeamId: 'payments', assigneeChangedAt: at(20), step: 1 };
    expect(escalationPosition(assigned, true)).toEqual({
      teamId: 'payments',
      step: 0,
      clock: at(20),
    });
    expect(escalationPosition({ ...opened, assigneeTeamId: 'payments' }, true)).toEqual({
      teamId: 'payments',
      step: 0,
      clock: at(0),
    });
    // A team without a policy leaves the organisation's in force.
    expect(escalationPosition(assigned, false)).toEqual({ teamId: null, step: 1, clock: at(0) });
  });

  it("keeps the team's count while the team holds it; starts afresh when it comes back or leaves", () => {
    const underTeam = {
      ...opened,
      assigneeTeamId: 'payments',
      assigneeChangedAt: at(20),
      step: 1,
      policyTeamId: 'payments',
      clockAt: at(20),
    };
    expect(escalationPosition(underTeam, true)).toEqual({
      teamId: 'payments',
      step: 1,
      clock: at(20),
    });
    expect(escalationPosition({ ...underTeam, assigneeChangedAt: at(50) }, true)).toEqual({
      teamId: 'payments',
      step: 0,
      clock: at(50),
    });
    expect(
      escalationPosition({ ...underTeam, assigneeTeamId: null, assigneeChangedAt: at(50) }, false),
    ).toEqual({ teamId: null, step: 0, clock: at(50) });
    expect(escalationPosition({ ...underTeam, assigneeTeamId: 'ops' }, true)).toEqual({
      teamId: 'ops',
      step: 0,
      clock: at(20),
    });
  });
});

describe('dueEscalationStep', () => {
  const steps = [step(10), step(30), step(60)];
  const position = { teamId: null, step: 0, clock: at(0) };

  it('is the last due step not passed yet, or -1', () => {
    expect(dueEscalationStep(steps, position, at(9))).toBe(-1);
    expect(dueEscalationStep(steps, position, at(10))).toBe(0);
    expect(dueEscalationStep(steps, position, at(45))).toBe(1);
    expect(dueEscalationStep(steps, { ...position, step: 2 }, at(45))).toBe(-1);
    expect(dueEscalationStep(steps, { ...position, step: 3 }, at(600))).toBe(-1);
    expect(dueEscalationStep(steps, { ...position, clock: at(20) }, at(45))).toBe(0);
  });
});

describe('deadlineWarningAt (SPEC §8h)', () => {
  it('warns 20 % of the whole time before the deadline between 1 and 60 minutes', () => {
    // 1 hour: 12 minutes before.
    expect(deadlineWarningAt(at(0), at(60))).toEqual(at(48));
    // 10 minutes: 2 minutes before.
    expect(deadlineWarningAt(at(0), at(10))).toEqual(at(8));
  });

  it('never less than 1 minute before, never more than 60 minutes before', () => {
    // 3 minutes: 20 % is 36 s, so 1 minute.
    expect(deadlineWarningAt(at(0), at(3))).toEqual(at(2));
    // 1 day: 20 % is 4.8 hours, so 60 minutes.
    expect(deadlineWarningAt(at(0), at(24 * 60))).toEqual(at(23 * 60));
  });

  it('no warning for a wait of 2 minutes or less', () => {
    expect(deadlineWarningAt(at(0), at(2))).toBeNull();
    expect(deadlineWarningAt(at(0), at(1))).toBeNull();
    expect(deadlineWarningAt(at(0), new Date(at(2).getTime() + 1000))).toEqual(
      new Date(at(2).getTime() + 1000 - 60_000),
    );
  });
});
