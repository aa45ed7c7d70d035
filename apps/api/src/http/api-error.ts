/**
 * The domain's error (libs/domain), under the name the HTTP layer has always used for it: the
 * guards, pipes and interceptors throw it, `AllExceptionsFilter` answers it. Services import
 * `DomainError` from `@interlock/domain` directly.
 */
export { DomainError as ApiError } from '@interlock/domain';
