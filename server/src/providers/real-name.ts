import { badRequest } from '../http/errors'

export const REAL_NAME_NOT_CONFIGURED = '未配置实名核验'

/** What a real-name check of name + ID number answers. */
export interface RealNameResult {
  /** True only when the provider confirmed that the name and the number belong together. */
  matched: boolean
}

/**
 * Checks a name and an ID number against an authoritative source (a licensed real-name service,
 * e.g. one backed by the public-security ID database). The embedded default is unconfigured and
 * says so; a real adapter is a new implementation selected by configuration, like SMS and WeChat.
 * `verify` throws when the check could not be made (network, quota), answering `matched: false` only
 * for a real mismatch.
 */
export interface RealNameProvider {
  /** Stored with a verified card (`id_cards.verified_by`), so it is known which service vouched. */
  readonly name: string
  verify(input: { realName: string; idNumber: string }): Promise<RealNameResult>
}

/**
 * No provider: 400 未配置实名核验 (400, not 503, so the text reaches the person, as for WeChat). A
 * bound card then stays 已绑定 and is never shown as 已实名.
 */
export const unconfiguredRealNameProvider: RealNameProvider = {
  name: 'unconfigured',
  async verify() {
    throw badRequest(REAL_NAME_NOT_CONFIGURED)
  },
}
