import { Body } from '../http/validated-params';
import type { MemberCall } from '../auth/caller';
import { CurrentMember, MemberCaller } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { IdParam } from '../http/id-param.pipe';
import { ApiKeysService } from './api-keys.service';
import { CreateApiKeyDto } from './dto/create-api-key.dto';
import { RenameApiKeyDto } from './dto/rename-api-key.dto';
import { ApiKeyListResponse, ApiKeyResponse, CreatedApiKeyResponse } from './dto/api-key.response';
import { ApiController, Operation } from '../openapi/operation.decorator';

@ApiController('api/api-keys', 'api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @MemberRoute('apiKey.read')
  @Operation.Get('/', 'listApiKeys', {
    summary: "List the organisation's keys (expired keys are not listed)",
    ok: ApiKeyListResponse,
  })
  async list(@CurrentMember() member: MemberPrincipal) {
    return { apiKeys: await this.apiKeys.list(member.organisationId) };
  }

  @MemberRoute('apiKey.create')
  @Operation.Post('/', 'createApiKey', {
    summary: 'Create a key; the full key is in this response only',
    created: CreatedApiKeyResponse,
  })
  create(@MemberCaller() caller: MemberCall, @Body() body: CreateApiKeyDto) {
    return this.apiKeys.create(caller, body.name, body.expiry);
  }

  @MemberRoute('apiKey.update')
  @Operation.Patch(':id', 'renameApiKey', { summary: 'Rename a key', ok: ApiKeyResponse })
  rename(@MemberCaller() caller: MemberCall, @IdParam() id: string, @Body() body: RenameApiKeyDto) {
    return this.apiKeys.rename(caller, id, body.name);
  }

  @MemberRoute('apiKey.delete')
  @Operation.Delete(':id', 'revokeApiKey', {
    summary: 'Revoke (delete) a key; it stops working at once everywhere',
    noContent: 'Revoked.',
  })
  async revoke(@MemberCaller() caller: MemberCall, @IdParam() id: string) {
    await this.apiKeys.revoke(caller, id);
  }
}
