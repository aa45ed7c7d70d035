import { HttpCode, Req, Res } from '@nestjs/common';
import { Body, Query, RawQuery } from '../http/validated-params';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiPaymentRequiredResponse,
  ApiQuery,
  ApiConflictResponse,
} from '@nestjs/swagger';
import type { ServerResponse } from 'node:http';
import { nodeResponse, type HttpRequest, type HttpResponse } from '../http/platform';
import { ApiKeyBudgetService } from '../rate-limits/api-key-budget.service';
import { setBudgetHeaders, spendOrRefuse } from '../rate-limits/budget-answer';
import type { BudgetVerdict } from '../rate-limits/api-key-budget';
import { HeldWaitRoute, takeDeferredSpending } from '../rate-limits/held-wait.decorator';
import type { JsonText } from '@interlock/domain';
import { assertMayReadAuditLog } from '../auth/audit-log-access.util';
import {
  CurrentCaller,
  CurrentMember,
  KeyCaller,
  KeyOrMemberCaller,
  MemberCaller,
} from '../auth/decorators/current-principal.decorator';
import type { Call, KeyCall, MemberCall } from '../auth/caller';
import {
  MachineOrMemberRoute,
  MachineRoute,
  MemberRoute,
} from '../auth/decorators/route-access.decorator';
import type { ApiKeyPrincipal, MemberPrincipal } from '../auth/principal';
import { IdParam, pathId, RawIdParam } from '../http/id-param.pipe';
import { IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import type { IdempotentRequest } from '../idempotency/idempotency.service';
import { markReplay } from '../idempotency/replay-header.util';
import { InterruptsService, type WaitBudget } from './interrupts.service';
import type { WaitClient, Waiter } from './interrupt-waits';
import { InterruptReviewService } from './interrupt-review.service';
import { AssignInterruptDto } from './dto/assign-interrupt.dto';
import { CancelInterruptDto } from './dto/cancel-interrupt.dto';
import { ExtendDeadlineDto } from './dto/extend-deadline.dto';
import { InterruptLifecycleService } from './interrupt-lifecycle.service';
import { CreateInterruptDto } from './dto/create-interrupt.dto';
import { DecideInterruptDto } from './dto/decide-interrupt.dto';
import { EscalateInterruptDto } from './dto/escalate-interrupt.dto';
import { SetPriorityDto } from './dto/set-priority.dto';
import { ListInterruptsQuery } from './dto/list-interrupts.query';
import {
  GetInterruptQuery,
  MAX_WAIT_SECONDS,
  readGetInterruptQuery,
} from './dto/get-interrupt.query';
import type { InterruptInclude } from './interrupt-record';
import {
  InterruptCountsResponse,
  InterruptDetailResponse,
  InterruptListResponse,
  InterruptResponse,
} from './dto/interrupt.response';
import { IDEMPOTENCY_KEY_HEADER } from '../idempotency/idempotency-key.decorator';
import { ApiController, Operation } from '../openapi/operation.decorator';

/**
 * The client of a held wait: it has left when its response closes before it was sent (a held
 * wait is then released). The raw Node response (Express's is one; Fastify's reply carries it as
 * `raw`); one 'close' listener, from the request's start, so that a client gone during the first
 * read is seen too ('on', not 'once': a response closes once, and 'once' wraps each listener).
 */
class HeldClient implements WaitClient {
  left = false;
  private wait: Waiter | undefined;

  constructor(res: unknown) {
    const raw = ((res as { raw?: ServerResponse }).raw ?? res) as ServerResponse;
    raw.on('close', () => {
      if (raw.writableFinished) return;
      this.left = true;
      this.wait?.wake('disconnected');
    });
  }

  onLeave(wait: Waiter | undefined): void {
    this.wait = wait;
  }
}

/**
 * A key's held wait and its organisation's request budget (SPEC §8e): spent here, not in the
 * guard. A class rather than three closures: a held request keeps it while it is held.
 */
class KeyWaitBudget implements WaitBudget {
  /**
   * What was left when the wait was held, for its answer's `RateLimit-*` fields: kept as the one
   * verdict and set on the response when the hold ends, not as four response headers for the
   * whole hold (a held request's heap, issue 37 §6).
   */
  private held: BudgetVerdict | undefined;

  constructor(
    private readonly budget: ApiKeyBudgetService,
    private readonly organisationId: string,
    private readonly res: HttpResponse,
  ) {}

  spend(): void {
    spendOrRefuse(this.budget, this.organisationId, this.res);
  }

  hold(): void {
    this.held = this.budget.peek(this.organisationId);
  }

  unhold(): void {
    // Set when the hold ends; a response already sent meanwhile (none is today) keeps its own.
    if (!nodeResponse(this.res).headersSent) setBudgetHeaders(this.res, this.held);
    this.held = undefined;
  }

  charge(): void {
    this.budget.charge(this.organisationId);
  }
}

/** No `include`: one set for every such read, not an empty one per request (a held wait keeps it). */
const NO_INCLUDE: ReadonlySet<InterruptInclude> = new Set();

@ApiController('api/interrupts', 'interrupts')
export class InterruptsController {
  constructor(
    private readonly interrupts: InterruptsService,
    private readonly review: InterruptReviewService,
    private readonly lifecycle: InterruptLifecycleService,
    private readonly budget: ApiKeyBudgetService,
  ) {}

  @MachineRoute()
  @Operation.Post('/', 'createInterrupt', {
    summary: 'Open an interrupt: ask humans to review 1–20 actions',
  })
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiCreatedResponse({ type: InterruptResponse })
  @ApiPaymentRequiredResponse({
    description: "MESSAGES_ALLOWANCE_EXHAUSTED: the month's included messages are used.",
  })
  @ApiConflictResponse({
    description: 'CONFLICT: the Idempotency-Key was used with a different request.',
  })
  async create(
    @KeyCaller() caller: KeyCall,
    @Body() body: CreateInterruptDto,
    @IdempotencyKey() idempotency: IdempotentRequest | undefined,
    @Res({ passthrough: true }) res: HttpResponse,
    @Req() req: HttpRequest,
  ): Promise<InterruptResponse> {
    // The key itself (authenticated above): a resumeUrl's signing secret is derived from it.
    const apiKey = req.headers['x-api-key'];
    return markReplay(
      res,
      await this.interrupts.create({
        interrupt: body,
        idempotency,
        apiKey: typeof apiKey === 'string' ? apiKey : undefined,
        ...caller,
      }),
    );
  }

  @MachineOrMemberRoute('interrupt.read')
  @Operation.Get('/', 'listInterrupts', {
    summary:
      "The organisation's interrupts, newest (or oldest) first, a page at a time: the inbox's filters",
    ok: InterruptListResponse,
  })
  list(
    @CurrentCaller() caller: ApiKeyPrincipal | MemberPrincipal,
    @Query() query: ListInterruptsQuery,
  ): Promise<JsonText<InterruptListResponse>> {
    return this.interrupts.listAnswer({
      organisationId: caller.organisationId,
      caller:
        caller.kind === 'member' ? { memberId: caller.memberId } : { apiKeyId: caller.apiKeyId },
      listing: query,
    });
  }

  // Declared before ':id', which would otherwise take "counts" for an id.
  @MemberRoute('interrupt.read')
  @Operation.Get('counts', 'countInterrupts', {
    summary: "The inbox tabs' counts for the signed-in member (capped)",
    ok: InterruptCountsResponse,
  })
  counts(@CurrentMember() member: MemberPrincipal) {
    return this.interrupts.counts(member.organisationId, member.memberId);
  }

  @MachineOrMemberRoute('interrupt.read')
  @HeldWaitRoute(MAX_WAIT_SECONDS)
  @Operation.Get(':id', 'getInterrupt', {
    summary:
      "One interrupt with its decisions (and, with include, its session, history and argus's receipts)",
    ok: InterruptDetailResponse,
  })
  // The query through no pipe, read by readGetInterruptQuery (its parameters as the DTO has them).
  @ApiQuery({ type: GetInterruptQuery })
  get(
    @CurrentCaller() caller: ApiKeyPrincipal | MemberPrincipal,
    @RawIdParam() rawId: string,
    @RawQuery() rawQuery: Record<string, unknown>,
    @Req() req: HttpRequest,
    @Res({ passthrough: true }) res: HttpResponse,
  ): Promise<JsonText<InterruptDetailResponse> | InterruptDetailResponse> {
    // No parameter of this route has a pipe, so Nest skips its pipes step (issue 28, the PK read):
    // the id is read here (a 404 before any 400, as the pipes answered), the query too.
    const id = pathId(rawId);
    const query = readGetInterruptQuery(rawQuery);
    if (query instanceof Promise)
      return query.then((read) => this.getOne(caller, id, read, req, res));
    return this.getOne(caller, id, query, req, res);
  }

  private getOne(
    caller: ApiKeyPrincipal | MemberPrincipal,
    id: string,
    query: GetInterruptQuery,
    req: HttpRequest,
    res: HttpResponse,
  ): Promise<JsonText<InterruptDetailResponse> | InterruptDetailResponse> {
    const include =
      query.include === undefined || query.include.length === 0
        ? NO_INCLUDE
        : new Set(query.include);
    // History is the interrupt's audit entries: the audit log's own rules apply (issue 34, item 8).
    if (include.has('history')) assertMayReadAuditLog(caller);
    if (query.waitSeconds === undefined || query.waitSeconds === 0)
      return this.interrupts.getAnswer(caller.organisationId, id, include);
    return this.interrupts.waitForAnswer(
      caller.organisationId,
      id,
      include,
      query.waitSeconds * 1000,
      new HeldClient(res),
      takeDeferredSpending(req)
        ? new KeyWaitBudget(this.budget, caller.organisationId, res)
        : undefined,
    );
  }

  @MemberRoute('interrupt.decide')
  @Operation.Post(':id/decisions', 'decideInterrupt', {
    summary: 'Decide one action request (one decision per action)',
  })
  @ApiCreatedResponse({
    type: InterruptResponse,
    description: 'The interrupt with the new decision.',
  })
  @ApiConflictResponse({ description: 'CONFLICT: the action already has a decision.' })
  decide(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
    @Body() body: DecideInterruptDto,
  ): Promise<InterruptResponse> {
    return this.review.decide({
      interruptId: id,
      actionName: body.actionName,
      decision: body.decision,
      editedArgs: body.editedArgs,
      editedName: body.editedName,
      message: body.message,
      response: body.response,
      ...caller,
    });
  }

  @HttpCode(200)
  @MachineOrMemberRoute('interrupt.decide')
  @Operation.Post(':id/cancel', 'cancelInterrupt', {
    summary:
      'Withdraw an open interrupt its agent no longer needs: its undecided actions can no longer be decided',
  })
  // SPEC §8e: `{reason?}` — no body at all withdraws without a reason.
  @ApiBody({ type: CancelInterruptDto, required: false })
  @ApiOkResponse({ type: InterruptResponse })
  @ApiConflictResponse({ description: 'CONFLICT: the interrupt is no longer open.' })
  cancel(
    @KeyOrMemberCaller() caller: Call,
    @IdParam() id: string,
    @Body() body: CancelInterruptDto,
  ): Promise<InterruptResponse> {
    return this.lifecycle.cancel(caller, id, body.reason ?? null);
  }

  @MemberRoute('interrupt.decide')
  @Operation.Post(':id/extend', 'extendInterruptDeadline', {
    summary: "Move an open interrupt's deadline later",
    ok: InterruptResponse,
  })
  @ApiConflictResponse({ description: 'CONFLICT: the interrupt is no longer open.' })
  extend(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
    @Body() body: ExtendDeadlineDto,
  ) {
    return this.lifecycle.extend(caller, id, body.timeoutSeconds);
  }

  @MemberRoute('interrupt.assign')
  @Operation.Post(':id/assign', 'assignInterrupt', {
    summary: 'Assign to a member or a team of the organisation, or unassign ({"memberId": null})',
    ok: InterruptResponse,
  })
  @ApiConflictResponse({ description: 'CONFLICT: the interrupt is already answered.' })
  assign(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
    @Body() body: AssignInterruptDto,
  ) {
    return this.review.assign({
      interruptId: id,
      // The body names exactly one (its validation): a team, a member, or `memberId: null`.
      assignee:
        body.teamId !== undefined
          ? { type: 'team', id: body.teamId }
          : body.memberId === null || body.memberId === undefined
            ? null
            : { type: 'member', id: body.memberId },
      ...caller,
    });
  }

  @MemberRoute('interrupt.assign')
  @Operation.Post(':id/priority', 'setInterruptPriority', {
    summary: 'Change how urgent an open interrupt is (low, normal, high, urgent)',
    ok: InterruptResponse,
  })
  @ApiConflictResponse({ description: 'CONFLICT: the interrupt is no longer open.' })
  setPriority(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
    @Body() body: SetPriorityDto,
  ) {
    return this.review.setPriority({ interruptId: id, priority: body.priority, ...caller });
  }

  @HttpCode(200)
  @MemberRoute('interrupt.escalate')
  @Operation.Post(':id/escalate', 'escalateInterrupt', {
    summary: 'Raise the escalation level, with an optional reason',
  })
  // SPEC §6: `{reason?}` — no body at all escalates without a reason.
  @ApiBody({ type: EscalateInterruptDto, required: false })
  @ApiOkResponse({ type: InterruptResponse })
  @ApiConflictResponse({ description: 'CONFLICT: the interrupt is already answered.' })
  escalate(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
    @Body() body: EscalateInterruptDto,
  ): Promise<InterruptResponse> {
    return this.review.escalate(caller, id, body.reason);
  }
}
