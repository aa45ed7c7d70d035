export {
  API_KEY_LETTERS,
  API_KEY_PREFIX_PATTERN,
  API_KEY_START_LETTERS,
  DEFAULT_API_KEY_PREFIX,
  apiKeyFormRefusal,
  apiKeyStart,
  assertValidApiKeyPrefix,
  generateApiKey,
  isValidApiKeyPrefix,
  parseApiKey,
  type ApiKeyParseResult,
} from './api-key';
export { apiKeyHashesEqual, constantTimeEqual, hashApiKey } from './hash';
