import { envelope } from '@contract/envelope'
import { REASONS } from '@contract/reasons'
import { issueToken } from '@contract/sso/auth'
import { useAppStore } from '@/stores/app-store'
import { useSessionStore } from '@/stores/session-store'
import { hostOf } from '../hosts'
import { HttpError, reasonOf } from './errors'
import { isRecord } from './query'
import type { Http, RefreshResult } from './types'

/**
 * Trades the stored refresh token for a new session (sign-on service, grant_type refresh_token) and
 * stores it. Quiet whatever happens: no loading, no toast, no 401 rule of its own; a refused or
 * unreadable answer is just "could not refresh", and the call that asked applies the 401 rule.
 */
export async function exchangeRefreshToken(
  http: Http,
  refreshToken: string,
): Promise<RefreshResult> {
  const body = await http
    .request<unknown>({
      url: issueToken.path,
      method: issueToken.method,
      baseUrl: hostOf(issueToken.service),
      data: { grant_type: 'refresh_token', refresh_token: refreshToken },
      loading: false,
      quietOffline: true,
      refreshOn401: false,
      hooks: {
        response: (response) =>
          response.statusCode === 200 && !(isRecord(response.data) && response.data.error)
            ? undefined
            : false,
      },
    })
    // A refused answer still says why (the response hook turned it into an HttpError).
    .catch((error: unknown) => (error instanceof HttpError ? error.response.data : null))
  const parsed = envelope(issueToken.output).safeParse(body)
  if (!parsed.success) {
    return reasonOf(body) === REASONS.refreshRaced ? 'raced' : false
  }
  const session = parsed.data.data
  useSessionStore.getState().setToken({
    access_token: session.access_token,
    token_type: session.token_type,
    expires_in: session.expires_in,
    refresh_token: session.refresh_token,
  })
  useAppStore.getState().setProfile(session.user)
  return true
}
