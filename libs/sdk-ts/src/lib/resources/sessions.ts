import type { APIPromise } from '../api-promise';
import type { Interlock } from '../client';
import type { PagePromise } from '../pagination';
import type { RequestOptions } from '../request-options';
import type {
  Session,
  SessionAppendResponse,
  SessionListParams,
  SessionListResponse,
  SessionMessage,
  SessionStartParams,
} from '../types';

/** Agent runs streamed into the Live View: `/api/sessions`. */
export class Sessions {
  constructor(private readonly client: Interlock) {}

  /** Starts a session. */
  start(params: SessionStartParams, options?: RequestOptions): APIPromise<Session> {
    return this.client.post<Session>('/api/sessions', { body: params, options });
  }

  /** One session (`messageCount`, `status`, `endedAt`…). */
  retrieve(id: string, options?: RequestOptions): APIPromise<Session> {
    return this.client.get<Session>(`/api/sessions/${encodeURIComponent(id)}`, { options });
  }

  /** Sessions, newest first (by `startedAt`); `for await` walks every page. */
  list(params: SessionListParams = {}, options?: RequestOptions): PagePromise<Session> {
    return this.client.getList<Session, SessionListResponse>(
      '/api/sessions',
      params,
      (body) => body.sessions,
      options,
    );
  }

  /** Appends 1–100 messages to a session's transcript. */
  append(
    id: string,
    messages: SessionMessage[],
    options?: RequestOptions,
  ): APIPromise<SessionAppendResponse> {
    return this.client.post<SessionAppendResponse>(
      `/api/sessions/${encodeURIComponent(id)}/messages`,
      {
        body: { messages },
        options,
      },
    );
  }

  /** Ends a session (a POST with no body). */
  end(id: string, options?: RequestOptions): APIPromise<Session> {
    return this.client.post<Session>(`/api/sessions/${encodeURIComponent(id)}/end`, { options });
  }
}
